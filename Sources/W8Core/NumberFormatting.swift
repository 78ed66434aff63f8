import Foundation
import W8Text

// The one home for how w8 writes numbers: one decimal for people and JSON, the exact value for files that must
// read back as the same Double. Always a point, whatever the locale, but in `localDecimalText`, for people.

extension Double {
    /// The value to the nearest tenth, never -0: what is shown and what JSON carries.
    public var roundedToTenth: Double {
        let rounded = (self * 10).rounded() / 10
        return rounded == 0 ? 0 : rounded
    }

    /// The value rounded to one decimal, as people read it: "182.4", never "-0.0".
    public var oneDecimalText: String { roundedToTenth.fixedPointText(decimals: 1) }

    /// `oneDecimalText` as the user's locale writes it: "82,5" in German, "82.5" in English. For human output only:
    /// JSON, CSV and the backup keep the point.
    public var localDecimalText: String { Localization.localDecimal(oneDecimalText) }

    /// The value as text that reads back as the same Double: `182.4`, never `182.40000000000001`; whole numbers
    /// keep one decimal (`180.0`).
    public var roundTripText: String {
        self == rounded() && abs(self) < 1e15 ? fixedPointText(decimals: 1) : "\(self)"
    }

    /// What `String(format: "%.<decimals>f", self)` writes. A value that is a whole number of 10^-decimals, as
    /// `roundedToTenth` and `GoalProgress.displayPercent` make them, is written from its digits, for the bench row
    /// "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks"); other values, and those too
    /// large for the digits to be exact, go through `String(format:)`.
    public func fixedPointText(decimals: Int) -> String {
        let value = self
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
