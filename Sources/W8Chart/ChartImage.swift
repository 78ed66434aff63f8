import Foundation
import W8Core
import W8Text

/// The file format of a chart image.
public enum ChartImageFormat: String, Sendable, CaseIterable {
    case png
    case svg

    /// The format named by the path's extension, in any case (`chart.PNG`); nil for any other extension or none.
    public init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }
}

/// What a chart image is drawn for.
public enum ChartStyle: Sendable {
    /// `w8 chart --output`: axes, dates, weights, a legend and a title.
    case full
    /// A notification's image, read at 48–128 px: thick strokes and no text.
    case sparkline

    /// The sizes cairo can draw in this style; a full chart needs room for its axes and labels.
    var sizes: ClosedRange<Int> {
        switch self {
        case .full: 200...16_384
        case .sparkline: 32...1_024
        }
    }
}

/// The weight chart as an image: weigh-ins as dots, the trend as a line, the goal as a dashed line. Its fields are
/// the picture's (`image.points`, `image.width`, …).
@dynamicMemberLookup
public struct ChartImage: Sendable {
    /// What to draw.
    public var picture: ChartPicture
    public var style: ChartStyle

    public init(_ picture: ChartPicture, style: ChartStyle = .full) {
        self.picture = picture
        self.style = style
    }

    public init(
        points: [TrendPoint], weighIns: [ChartWeighIn]? = nil, goal: Double?, unit: WeightUnit, timeZone: TimeZone,
        width: Int = 800, height: Int = 400, title: String? = nil, style: ChartStyle = .full
    ) {
        self.init(
            ChartPicture(
                points: points, weighIns: weighIns, goal: goal, unit: unit, timeZone: timeZone, width: width,
                height: height, title: title),
            style: style)
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<ChartPicture, Value>) -> Value {
        get { picture[keyPath: field] }
        set { picture[keyPath: field] = newValue }
    }

    /// Writes the chart to `path` atomically: it renders into a new file with mode 0600 in the same directory, then
    /// renames it over `path`. A reader sees the old file or the whole new one, never a part; on failure `path` is
    /// left as it was and the temporary file is removed.
    public func write(to path: String, format: ChartImageFormat) throws {
        let sizes = style.sizes
        let (width, height) = (picture.width, picture.height)
        guard sizes.contains(width), sizes.contains(height) else {
            throw ChartImageError(
                path: path,
                reason: tr(
                    // TRANSLATORS: why a chart image cannot be written: {width}×{height} is the size asked for, in
                    // pixels; {min} and {max} whole numbers.
                    "the size {width}×{height} is not drawable; width and height must be {min}–{max} pixels",
                    ["width": width, "height": height, "min": sizes.lowerBound, "max": sizes.upperBound]))
        }
        do throws(RenderFailure) { try CairoRendering.load() } catch {
            throw ChartImageError(path: path, reason: error.reason)
        }
        let draw: @Sendable (CairoCanvas) -> Void =
            switch style {
            case .full: ChartDrawing(chart: self).draw
            case .sparkline: SparklineDrawing(chart: self).draw
            }
        try ImageFile.write(to: path) { sink in
            switch format {
            case .png: try CairoRendering.png(width: width, height: height, to: sink, draw: draw)
            case .svg: try CairoRendering.svg(width: width, height: height, to: sink, draw: draw)
            }
        }
    }
}

extension ChartImage {
    /// The weigh-ins to draw as dots, in date order, finite only.
    var dots: [ChartWeighIn] { picture.weighIns.filter { $0.weight.isFinite }.sorted { $0.date < $1.date } }
}

/// Why a chart image could not be written; the description names the path.
public struct ChartImageError: Error, CustomStringConvertible, LocalizedError, Equatable, Sendable {
    public var description: String
    /// The file was opened but a write to it failed (a full disk, `/dev/full`): output was lost, not refused.
    public var writeFailed = false

    public var errorDescription: String? { description }

    init(path: String, reason: String, writeFailed: Bool = false) {
        // TRANSLATORS: {reason} says why: "the path names a directory", or the system's "Permission denied".
        description = tr("cannot write the chart image '{path}': {reason}", ["path": path, "reason": reason])
        self.writeFailed = writeFailed
    }
}
