import Foundation
import W8Core

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

    /// The file's text, or nil when there is no file yet.
    func text() throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AppError.config(path: path, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AppError.config(path: path, message: "is not UTF-8 text")
        }
        return text
    }

    /// The settings; defaults when the file does not exist. A malformed file is an error naming file and line.
    public func load() throws -> Settings {
        guard let text = try text() else { return Settings() }
        do {
            return try ConfigDocument(text: text).settings()
        } catch let error as W8CoreError {
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
        } catch let error as W8CoreError {
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
        } catch let error as W8CoreError {
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
            throw AppError.config(path: directory, message: "cannot be created: \(error.localizedDescription)")
        }
        let output = try TextOutput.replacing(path) { [path] in .config(path: path, message: "cannot be written: \($0)")
        }
        try output.write(text)
        try output.commit()
    }
}
