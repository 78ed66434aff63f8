import CCairo
import Foundation
import W8System
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The one layer of W8Chart that calls C: cairo for drawing, POSIX for the file. Every cairo object is created and
// destroyed within one call, so rendering keeps no state between calls and may run on any thread.

/// Why rendering or writing failed, without the path; `ImageFile` adds it.
struct RenderFailure: Error {
    var reason: String
    /// A write of the file failed (exit 74), rather than the rendering.
    var writeFailed = false

    /// The message of a cairo status (`cairo_status_to_string`).
    init(_ status: cairo_status_t) {
        reason = "cairo: " + String(cString: cairo_status_to_string(status))
    }

    /// The reason of a failed system call (`strerror`).
    init(_ error: SystemCallError) {
        reason = error.reason
        writeFailed = true
    }

    init(reason: String) {
        self.reason = reason
    }
}

/// The file cairo's stream functions write into; remembers the first write error.
final class FileSink {
    let writer: OutputFile
    private(set) var failure: RenderFailure?

    init(writer: OutputFile) {
        self.writer = writer
    }

    /// Writes all `count` bytes; false after any failure.
    func append(_ bytes: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard failure == nil else { return false }
        guard count > 0 else { return true }
        guard let bytes else { return false }
        do throws(SystemCallError) {
            try writer.write(UnsafeRawBufferPointer(start: bytes, count: count))
            return true
        } catch {
            failure = RenderFailure(error)
            return false
        }
    }

    /// A `cairo_write_func_t` closure argument for this sink; valid while the sink is alive.
    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// Renders a drawing through a cairo surface into a `FileSink`.
enum CairoRendering {
    /// Loads libcairo.so.2 (`ccairo_load`, once per process); throws its loader's one-line reason when it cannot.
    static func load() throws(RenderFailure) {
        guard ccairo_load() == 0 else {
            // TRANSLATORS: {reason} is the dynamic loader's, in English ("libcairo.so.2: cannot open shared object file").
            throw RenderFailure(
                reason: tr("cairo cannot be loaded: {reason}", ["reason": String(cString: ccairo_error())]))
        }
    }

    /// The `cairo_write_func_t` that hands cairo's output to the `FileSink` passed as its closure.
    private static let writeToSink: cairo_write_func_t = { closure, bytes, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<FileSink>.fromOpaque(closure).takeUnretainedValue()
        return sink.append(bytes, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }

    /// PNG: draws on a `cairo_image_surface_create(CAIRO_FORMAT_ARGB32, …)` surface, then
    /// `cairo_surface_write_to_png_stream`.
    static func png(width: Int, height: Int, to sink: FileSink, draw: (CairoCanvas) -> Void) throws {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw RenderFailure(CAIRO_STATUS_NO_MEMORY)
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface), sink)
        try render(on: surface, width: width, height: height, draw: draw)
        try check(cairo_surface_write_to_png_stream(surface, writeToSink, sink.closure), sink)
    }

    /// SVG: draws on a `cairo_svg_surface_create_for_stream` surface whose document unit is the CSS pixel
    /// (`cairo_svg_surface_set_document_unit`), then `cairo_surface_finish` writes the document.
    static func svg(width: Int, height: Int, to sink: FileSink, draw: (CairoCanvas) -> Void) throws {
        guard
            let surface = cairo_svg_surface_create_for_stream(writeToSink, sink.closure, Double(width), Double(height))
        else { throw RenderFailure(CAIRO_STATUS_NO_MEMORY) }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface), sink)
        cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
        try render(on: surface, width: width, height: height, draw: draw)
        cairo_surface_finish(surface)
        try check(cairo_surface_status(surface), sink)
    }

    /// Draws through a `cairo_t` made with `cairo_create`, checking `cairo_status` after.
    private static func render(
        on surface: OpaquePointer, width: Int, height: Int, draw: (CairoCanvas) -> Void
    ) throws {
        guard let context = cairo_create(surface) else { throw RenderFailure(CAIRO_STATUS_NO_MEMORY) }
        defer { cairo_destroy(context) }
        try check(cairo_status(context), nil)
        draw(CairoCanvas(context: context, width: Double(width), height: Double(height)))
        try check(cairo_status(context), nil)
        cairo_surface_flush(surface)
        try check(cairo_surface_status(surface), nil)
    }

    /// Throws for any status but success, preferring the sink's errno to cairo's generic write error.
    private static func check(_ status: cairo_status_t, _ sink: FileSink?) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        if let failure = sink?.failure { throw failure }
        throw RenderFailure(status)
    }
}

/// A colour as 8-bit sRGB components, the way the tests read them back.
struct ChartColor: Equatable, Sendable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    init(_ hex: UInt32) {
        red = UInt8((hex >> 16) & 0xFF)
        green = UInt8((hex >> 8) & 0xFF)
        blue = UInt8(hex & 0xFF)
    }
}

/// How text is placed relative to its anchor point.
enum TextAnchor {
    case left, center, right
}

/// One `cairo_t` for the duration of a drawing: the drawing operations the chart needs, and nothing else.
struct CairoCanvas {
    let context: OpaquePointer
    let width: Double
    let height: Double

    /// `cairo_set_source_rgb`.
    func setColor(_ color: ChartColor) {
        cairo_set_source_rgb(
            context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }

    /// `cairo_rectangle` + `cairo_fill`.
    func fillRectangle(x: Double, y: Double, width: Double, height: Double, color: ChartColor) {
        setColor(color)
        cairo_rectangle(context, x, y, width, height)
        cairo_fill(context)
    }

    /// `cairo_arc` + `cairo_fill`.
    func fillCircle(x: Double, y: Double, radius: Double, color: ChartColor) {
        setColor(color)
        cairo_new_sub_path(context)
        cairo_arc(context, x, y, radius, 0, 2 * Double.pi)
        cairo_fill(context)
    }

    /// A straight line (`cairo_move_to`, `cairo_line_to`, `cairo_stroke`), dashed with `cairo_set_dash` if given.
    func strokeLine(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double), width: Double, color: ChartColor,
        dash: [Double] = []
    ) {
        cairo_move_to(context, start.x, start.y)
        cairo_line_to(context, end.x, end.y)
        stroke(width: width, color: color, dash: dash)
    }

    /// A path through `points` (`cairo_line_to`), or a monotone cubic through them (`cairo_curve_to`) that bends
    /// smoothly but never overshoots a point, so the line stays inside the points' range.
    func strokePath(through points: [(x: Double, y: Double)], smooth: Bool, width: Double, color: ChartColor) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.x, first.y)
        if smooth {
            for segment in MonotoneCubic.segments(through: points) {
                cairo_curve_to(
                    context, segment.control1.x, segment.control1.y, segment.control2.x, segment.control2.y,
                    segment.end.x, segment.end.y)
            }
        } else {
            for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        }
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        stroke(width: width, color: color, dash: [])
        cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT)
    }

    private func stroke(width: Double, color: ChartColor, dash: [Double]) {
        setColor(color)
        cairo_set_line_width(context, width)
        cairo_set_dash(context, dash, Int32(dash.count), 0)
        cairo_stroke(context)
        cairo_set_dash(context, nil, 0, 0)
    }

    /// Picks the toy font (`cairo_select_font_face` "sans-serif", `cairo_set_font_size`).
    func setFont(size: Double, bold: Bool = false) {
        cairo_select_font_face(
            context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
    }

    /// The advance of `text` in the current font (`cairo_text_extents`).
    func textWidth(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// The distance from the baseline to the middle of a digit in the current font (`cairo_text_extents` of "0"),
    /// to centre labels on a line.
    var digitMiddle: Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, "0", &extents)
        return -(extents.y_bearing / 2)
    }

    /// Draws `text` in the current font with its baseline at `y` (`cairo_move_to` + `cairo_show_text`).
    func showText(_ text: String, x: Double, y: Double, anchor: TextAnchor = .left, color: ChartColor) {
        let offset: Double =
            switch anchor {
            case .left: 0
            case .center: textWidth(text) / 2
            case .right: textWidth(text)
            }
        setColor(color)
        cairo_move_to(context, x - offset, y)
        cairo_show_text(context, text)
        cairo_new_path(context)
    }
}

/// Writes a file through an `OutputFile` (a regular file atomically, a device in place); errors name the path.
enum ImageFile {
    static func write(to path: String, _ body: (FileSink) throws -> Void) throws {
        guard !path.hasSuffix("/"), !path.isEmpty else {
            // TRANSLATORS: why a chart image cannot be written, after "cannot write the chart image 'PATH': ".
            throw ChartImageError(path: path, reason: tr("the path names a directory"))
        }
        do {
            let writer = try OutputFile(path)
            try body(FileSink(writer: writer))
            try writer.commit()
        } catch let failure as RenderFailure {
            throw ChartImageError(path: path, reason: failure.reason, writeFailed: failure.writeFailed)
        } catch let failure as SystemCallError {
            throw ChartImageError(
                path: path, reason: failure.reason, writeFailed: ["write", "fsync", "close"].contains(failure.call))
        }
    }
}
