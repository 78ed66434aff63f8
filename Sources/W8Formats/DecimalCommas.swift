import Foundation
import W8Core

/// Rebuilds the decimal commas of a row that a comma-separated file split apart: TrendWeight writes numbers in
/// the browser's language, so a German download holds `2025-03-01,194,2,No,…` under a header of fewer fields.
enum DecimalCommas {
    /// `fields` with adjacent pairs of digit-only fragments joined as `whole.fraction` so that `count` fields are
    /// left, when exactly one choice of pairs does it; nil when none does or several do.
    static func rebuild(_ fields: [String], count: Int) -> [String]? {
        let joins = fields.count - count
        guard joins > 0 else { return nil }
        let digits = fields.map { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        func joinable(_ i: Int) -> Bool { i + 1 < fields.count && digits[i] && digits[i + 1] }
        // ways[i][j]: the choices of j pairs among fields i…, counted up to 2 (more than one is ambiguous).
        let n = fields.count
        var ways = Array(repeating: Array(repeating: 0, count: joins + 1), count: n + 2)
        for i in stride(from: n, through: 0, by: -1) {
            for j in 0...joins {
                if i == n {
                    ways[i][j] = j == 0 ? 1 : 0
                    continue
                }
                var total = ways[i + 1][j]
                if j > 0, joinable(i) { total += ways[i + 2][j - 1] }
                ways[i][j] = min(total, 2)
            }
        }
        guard ways[0][joins] == 1 else { return nil }
        var rebuilt: [String] = []
        var (i, j) = (0, joins)
        while i < n {
            if j > 0, joinable(i), ways[i + 2][j - 1] == 1, ways[i + 1][j] == 0 {
                rebuilt.append(fields[i] + "." + fields[i + 1])
                (i, j) = (i + 2, j - 1)
            } else {
                rebuilt.append(fields[i])
                i += 1
            }
        }
        return rebuilt
    }
}
