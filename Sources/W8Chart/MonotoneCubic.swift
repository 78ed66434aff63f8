import Foundation

/// Tangents for a monotone cubic Hermite curve (Steffen's method, as d3's `curveMonotoneX`): the curve through
/// points with increasing x never leaves the range between neighbouring points.
enum MonotoneCubic {
    typealias Point = (x: Double, y: Double)

    /// The Bézier control points and end of each segment after the first point.
    static func segments(through points: [Point]) -> [(control1: Point, control2: Point, end: Point)] {
        let slopes = slopes(points)
        return points.indices.dropFirst().map { index in
            let (start, end) = (points[index - 1], points[index])
            let third = (end.x - start.x) / 3
            return (
                (start.x + third, start.y + third * slopes[index - 1]), (end.x - third, end.y - third * slopes[index]),
                end
            )
        }
    }

    static func slopes(_ points: [(x: Double, y: Double)]) -> [Double] {
        let count = points.count
        guard count > 1 else { return Array(repeating: 0, count: count) }
        let secants = (0..<(count - 1)).map { index -> Double in
            let run = points[index + 1].x - points[index].x
            return run > 0 ? (points[index + 1].y - points[index].y) / run : 0
        }
        var slopes = [Double](repeating: 0, count: count)
        for index in 1..<(count - 1) {
            let (before, after) = (secants[index - 1], secants[index])
            let runBefore = points[index].x - points[index - 1].x
            let runAfter = points[index + 1].x - points[index].x
            guard runBefore + runAfter > 0 else { continue }
            let parabola = (before * runAfter + after * runBefore) / (runBefore + runAfter)
            slopes[index] = (signum(before) + signum(after)) * min(abs(before), abs(after), 0.5 * abs(parabola))
        }
        slopes[0] = endSlope(secant: secants[0], neighbour: slopes[1], count: count)
        slopes[count - 1] = endSlope(secant: secants[count - 2], neighbour: slopes[count - 2], count: count)
        return slopes
    }

    private static func signum(_ value: Double) -> Double { value > 0 ? 1 : value < 0 ? -1 : 0 }

    /// The end tangent of a parabola through the end point, its neighbour and the neighbour's tangent.
    private static func endSlope(secant: Double, neighbour: Double, count: Int) -> Double {
        count > 2 ? (3 * secant - neighbour) / 2 : secant
    }
}
