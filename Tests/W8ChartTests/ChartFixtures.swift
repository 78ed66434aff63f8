import CCairo
import Foundation
import W8TestSupport

@testable import W8Chart
@testable import W8Core

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Charts with known data: a month in Berlin across the spring daylight-saving change, in pounds.
enum SampleCharts {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// 30 mornings from 2026-03-15 07:30 local time, losing about 0.2 lb a day with day-to-day noise.
    static let points: [TrendPoint] = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let first = calendar.date(from: DateComponents(year: 2026, month: 3, day: 15, hour: 7, minute: 30))!
        let noise = [0.0, 1.2, -0.8, 0.6, -1.1, 0.3, 0.9]
        return (0..<30).map { day in
            let trend = 186.0 - 0.2 * Double(day)
            return TrendPoint(
                date: calendar.date(byAdding: .day, value: day, to: first)!, weight: trend + noise[day % noise.count],
                trend: trend)
        }
    }()

    static func chart(
        points: [TrendPoint] = points, goal: Double? = 178, width: Int = 800, height: Int = 400
    ) -> ChartImage {
        ChartImage(
            points: points, goal: goal, unit: .lb, timeZone: berlin, width: width, height: height,
            title: "Weight, last 30 days")
    }
}

extension ChartImage {
    /// Draws the chart as a PNG in a directory of its own and reads it back with cairo's decoder.
    func decoded() throws -> DecodedPNG {
        let directory = try TemporaryDirectory(prefix: "w8chart")
        defer { directory.remove() }
        let path = directory.appending("chart.png")
        try write(to: path, format: .png)
        return try DecodedPNG(path: path)
    }
}

/// A PNG read back with cairo's decoder (`cairo_image_surface_create_from_png`).
struct DecodedPNG {
    let width: Int
    let height: Int
    /// Opaque pixels as (red, green, blue); alpha is checked to be 255 while decoding.
    private let pixels: [ChartColor]
    let allOpaque: Bool

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        guard ccairo_load() == 0 else { throw Failure(description: String(cString: ccairo_error())) }
        guard let surface = cairo_image_surface_create_from_png(path) else { throw Failure(description: "no surface") }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(
                description: "cairo cannot decode \(path): " + String(cString: cairo_status_to_string(status)))
        }
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw Failure(description: "no pixel data") }
        var pixels: [ChartColor] = []
        pixels.reserveCapacity(width * height)
        let hasAlpha = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
        var opaque = true
        for row in 0..<height {
            for column in 0..<width {
                // CAIRO_FORMAT_ARGB32 (and RGB24): one native-endian 32-bit word per pixel.
                let word = UnsafeRawPointer(data).load(fromByteOffset: row * stride + column * 4, as: UInt32.self)
                if hasAlpha, word >> 24 != 0xFF { opaque = false }
                pixels.append(ChartColor(word & 0xFF_FFFF))
            }
        }
        self.pixels = pixels
        allOpaque = opaque
    }

    /// How many pixels are within `tolerance` of `color` in every channel.
    func count(of color: ChartColor, tolerance: Int = 6) -> Int {
        pixels.reduce(0) { total, pixel in
            let close =
                abs(Int(pixel.red) - Int(color.red)) <= tolerance
                && abs(Int(pixel.green) - Int(color.green)) <= tolerance
                && abs(Int(pixel.blue) - Int(color.blue)) <= tolerance
            return total + (close ? 1 : 0)
        }
    }

    /// The pixel at column `x`, row `y`.
    func pixel(x: Int, y: Int) -> ChartColor { pixels[y * width + x] }

    /// How many pixels are not the background colour.
    var drawnPixels: Int { width * height - count(of: ChartPalette.background, tolerance: 0) }
}

/// The root element of an XML document, if FoundationXML's parser accepts the whole document.
///
/// swift-corelibs-foundation's `XMLParser` reports no error for a document cut off mid-way, so this also requires
/// every element to be closed and the root to end the document.
final class XMLRoot: NSObject, XMLParserDelegate {
    private(set) var name: String?
    private(set) var attributes: [String: String] = [:]
    private(set) var elements = 0
    private var open: [String] = []
    private var rootClosed = false

    /// Parses `data`; nil with the reason when it is not well-formed.
    static func parse(_ data: Data) -> (root: XMLRoot?, error: String?) {
        let parser = XMLParser(data: data)
        let root = XMLRoot()
        parser.delegate = root
        guard parser.parse() else { return (nil, parser.parserError.map { "\($0)" } ?? "unknown error") }
        guard root.name != nil, root.open.isEmpty, root.rootClosed else {
            return (nil, "the document ends with <\(root.open.joined(separator: "><"))> open")
        }
        return (root, nil)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        elements += 1
        if name == nil {
            name = elementName
            attributes = attributeDict
        } else if rootClosed {
            parser.abortParsing()  // a second root element
        }
        open.append(elementName)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard open.popLast() == elementName else { return parser.abortParsing() }
        if open.isEmpty { rootClosed = true }
    }
}
