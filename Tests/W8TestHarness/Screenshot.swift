import Foundation

/// A PNG of a test's screen, measured with ImageMagick.
public struct Screenshot: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The number of pixels within `fuzzPercent` of `colour` (`#rrggbb`), in `region` (`WxH+X+Y`) or everywhere.
    public func pixels(near colour: String, fuzzPercent: Int = 8, region: String? = nil) throws -> Int {
        let convert = try requireExecutable("convert", debianPackage: "imagemagick")
        let crop = region.map { ["-crop", $0, "+repage"] } ?? []
        let output = try runCommand(
            convert,
            [url.path] + crop + [
                "-alpha", "off", "-fuzz", "\(fuzzPercent)%", "-fill", "black", "+opaque", colour, "-fill", "white",
                "-opaque", colour, "-format", "%[fx:round(mean*w*h)]", "info:",
            ], environment: baseChildEnvironment())
        guard output.status == 0, let count = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "convert (count pixels)", output: output.stdout + output.stderr)
        }
        return count
    }

    /// The number of pixels that differ between `region` (`WxH+X+Y`, default all) of this screenshot and of `other`
    /// (`compare -metric AE`).
    public func differingPixels(from other: Screenshot, region: String? = nil) throws -> Int {
        let compare = try requireExecutable("compare", debianPackage: "imagemagick")
        let crop = region.map { "[\($0)]" } ?? ""
        let output = try runCommand(
            compare, ["-metric", "AE", url.path + crop, other.url.path + crop, "null:"],
            environment: baseChildEnvironment())
        // compare exits 1 when the images differ, and prints the metric on stderr.
        guard output.status <= 1, let count = Int(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NotificationServerFixtureError.unreadableOutput(
                "compare -metric AE", output: output.stdout + output.stderr)
        }
        return count
    }

    /// A copy of this screenshot at `url`, to compare later screens with.
    public func copy(to url: URL) throws -> Screenshot {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: self.url, to: url)
        return Screenshot(url: url)
    }

    /// The size of the PNG in bytes.
    public var bytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0
    }
}

/// Where tests keep their screenshots: `.build/screenshots/` of the checkout.
public let screenshotDirectory = repositoryRoot.appendingPathComponent(".build/screenshots")
