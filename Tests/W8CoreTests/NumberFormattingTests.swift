import Foundation
import Testing
import W8Core
import W8TestSupport

/// `Double.fixedPointText` writes numbers from their digits instead of through `String(format:)`; it must write what
/// `String(format:)` writes, for every value the app gives it.
@Suite struct NumberFormattingTests {
    @Test("fixed writes what %.Nf writes for whole numbers of tenths, hundredths and units", arguments: [0, 1, 2])
    func fixedMatchesPrintf(decimals: Int) {
        var generator = SeededRandom.fromEnvironment("fixed-point text, \(decimals) decimals")
        let scale = pow(10, Double(decimals))
        var values: [Double] = [0, -0.0, 0.1, 0.5, 0.05, 1, 9.95, 99.9, 100, 182.4, 1e12, -182.4, -0.1]
        for _ in 0..<20_000 {
            values.append(Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / scale)
        }
        for value in values {
            let cut = (value * scale).rounded() / scale
            #expect(
                cut.fixedPointText(decimals: decimals) == String(format: "%.\(decimals)f", cut),
                "\(cut), seed \(generator.seed)")
        }
    }

    @Test("Values that are not whole numbers of the unit still read as %.Nf")
    func otherValuesFallBack() {
        for value in [0.15, 0.25, 1.05, 2.675, 1e300, .infinity, -.infinity, .nan, 123.456] {
            #expect(value.fixedPointText(decimals: 1) == String(format: "%.1f", value), "\(value)")
        }
    }

    @Test("decimal, exact and displayPercent keep their wording")
    func wording() {
        #expect(182.44.oneDecimalText == "182.4")
        #expect((-0.04).oneDecimalText == "0.0")
        #expect(180.roundTripText == "180.0")
        #expect(182.4.roundTripText == "182.4")
        #expect(GoalProgress.displayPercent(24.96) == "24")
        #expect(GoalProgress.displayPercent(6.75, decimals: 1) == "6.7")
        #expect(GoalProgress.displayPercent(-0.01, decimals: 1) == "0.0")
    }
}
