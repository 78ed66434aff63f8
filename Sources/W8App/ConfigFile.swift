import Foundation
import W8Core
import W8Formats
import W8System
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The human-editable settings file, `config.toml`.
public struct ConfigFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The most a config file may hold; the documented one is well under 4 KiB.
    public static let sizeLimit = 1 << 20

    /// The file's text, or nil when there is no file yet. Read with a size cap: a symlink to `/dev/zero` or
    /// megabytes of garbage is an error naming the line where the cap was reached, not a hang.
    func text() throws -> String? {
        let contents: BoundedFileContents
        do throws(SystemCallError) {
            contents = try readFile(path, limit: ConfigFile.sizeLimit)
        } catch {
            // TRANSLATORS: follows the config file's path and ": "; {reason} is the system's.
            throw AppError.config(path: path, message: tr("cannot be read: {reason}", ["reason": error.reason]))
        }
        switch contents {
        case .missing: return nil
        case .tooLarge(let prefix):
            let line = prefix.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw AppError.config(
                path: path,
                message: tr(
                    "line {line}: the file is larger than {size} MiB; a config file is a few lines (move it away and run 'w8 config' to see the settings)",
                    ["line": line, "size": ConfigFile.sizeLimit >> 20]))
        case .bytes(let data):
            guard let text = String(validating: data, as: UTF8.self) else {
                let valid = data.prefix { $0 < 0x80 }
                let line = valid.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                throw AppError.config(path: path, message: tr("line {line}: is not UTF-8 text", ["line": line]))
            }
            return text
        }
    }

    /// The settings; defaults when the file does not exist. A malformed file is an error naming file and line.
    public func load() throws -> Settings {
        guard let text = try text() else { return Settings() }
        do {
            return try ConfigDocument(text: text).settings()
        } catch let error where error is W8CoreError || error is W8FormatsError {
            throw AppError.config(path: path, message: error.localizedDescription)
        }
    }

    /// Sets one key from text typed by the person, keeping the file's comments, and returns the new settings.
    @discardableResult
    public func set(_ key: SettingKey, to text: String) throws -> Settings {
        var settings = try load()
        try key.apply(try key.parse(text), to: &settings)
        let current = try self.text() ?? ConfigDocument.defaultText()
        let document: ConfigDocument
        do {
            document = try ConfigDocument(text: current).setting(key, to: key.value(in: settings))
        } catch let error where error is W8CoreError || error is W8FormatsError {
            throw AppError.config(path: path, message: error.localizedDescription)
        }
        try write(document.text)
        return settings
    }

    /// Sets several keys to typed values (a restored backup), writing the file once; returns the new settings.
    @discardableResult
    public func set(_ values: [(SettingKey, SettingValue)]) throws -> Settings {
        var settings = try load()
        var document = ConfigDocument(text: try text() ?? ConfigDocument.defaultText())
        do {
            for (key, value) in values {
                try key.apply(value, to: &settings)
                document = try document.setting(key, to: key.value(in: settings))
            }
        } catch let error where error is W8CoreError || error is W8FormatsError {
            throw AppError.config(path: path, message: error.localizedDescription)
        }
        try write(document.text)
        return settings
    }

    /// Writes the file atomically: a temporary file beside it, flushed, then renamed over it.
    func write(_ text: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            // TRANSLATORS: follows the config directory's path and ": "; {reason} is the system's.
            let message = tr("cannot be created: {reason}", ["reason": error.localizedDescription])
            throw AppError.config(path: directory, message: message)
        }
        let output = try TextOutput.replacing(path) { [path] in
            .config(path: path, message: tr("cannot be written: {reason}", ["reason": $0]))
        }
        try output.write(text)
        try output.commit()
    }
}
