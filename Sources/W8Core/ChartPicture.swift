import Foundation

/// What a weight chart shows, whoever draws it: the trend as a line, weigh-ins as dots, the goal as a dashed line,
/// at a size. The workflows ask for one through W8App's `ChartDrawer`; W8Chart draws it (`ChartImage`).
public struct ChartPicture: Sendable, Equatable {
    /// The days to draw, in the preferred unit: the trend line.
    public var points: [TrendPoint]
    /// The dots: every weigh-in in the chart's time, in the preferred unit.
    public var weighIns: [ChartWeighIn]
    /// The goal weight in `unit`, drawn as a dashed line; nil draws no goal.
    public var goal: Double?
    public var unit: WeightUnit
    /// The time zone of the date labels.
    public var timeZone: TimeZone
    /// The size in pixels (PNG) or CSS pixels (SVG).
    public var width: Int
    public var height: Int
    public var title: String?

    /// - Parameter weighIns: the dots; nil draws each day's earliest weight of `points`.
    public init(
        points: [TrendPoint], weighIns: [ChartWeighIn]? = nil, goal: Double?, unit: WeightUnit, timeZone: TimeZone,
        width: Int = 800, height: Int = 400, title: String? = nil
    ) {
        self.points = points
        self.weighIns = weighIns ?? ChartWeighIn.of(points)
        self.goal = goal
        self.unit = unit
        self.timeZone = timeZone
        self.width = width
        self.height = height
        self.title = title
    }
}
