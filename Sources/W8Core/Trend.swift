import Foundation

/// One local calendar day of the trend: the day's earliest weight and the smoothed trend weight after it, both in
/// the preferred unit. Shared by the trend analysis, the terminal chart and the chart image.
public struct TrendPoint: Sendable, Equatable {
    /// The date of the day's earliest entry.
    public var date: Date
    public var weight: Double
    public var trend: Double

    public init(date: Date, weight: Double, trend: Double) {
        self.date = date
        self.weight = weight
        self.trend = trend
    }
}
