import Foundation

// The one home for how w8 writes numbers: one decimal for people and JSON, the exact value for files that must
// read back as the same Double. Always a point, whatever the locale.

extension Weight {
    /// `value` to the nearest tenth, never -0: what is shown and what JSON carries.
    public static func tenths(_ value: Double) -> Double {
        let rounded = (value * 10).rounded() / 10
        return rounded == 0 ? 0 : rounded
    }

    /// One decimal: "182.4", never "-0.0".
    public static func decimal(_ value: Double) -> String { fixed(tenths(value), decimals: 1) }

    /// A number as text that reads back as the same Double: `182.4`, never `182.40000000000001`; whole numbers
    /// keep one decimal (`180.0`).
    public static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? fixed(value, decimals: 1) : "\(value)"
    }

    /// What `String(format: "%.<decimals>f", value)` writes for a `value` that is a whole number of
    /// 10^-decimals, as `tenths` and `GoalProgress.displayPercent` make them, written from its digits: the C
    /// variadic call makes a dynamic cast whose first use scans every protocol conformance of the binary, a
    /// tenth of a millisecond of every `w8 add`. Other values, and those too large for the digits to be exact,
    /// still go through `String(format:)`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
        let scaled = (abs(value) * scale).rounded()
        guard (0...6).contains(decimals), value.isFinite, scaled < 9_007_199_254_740_992,
            scaled / scale == abs(value)
        else { return String(format: "%.\(decimals)f", value) }
        var digits = String(UInt64(scaled))
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return value.sign == .minus ? "-" + digits : digits
    }
}
