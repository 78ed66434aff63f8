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
    public static func decimal(_ value: Double) -> String { String(format: "%.1f", tenths(value)) }

    /// A number as text that reads back as the same Double: `182.4`, never `182.40000000000001`; whole numbers
    /// keep one decimal (`180.0`).
    public static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }
}
