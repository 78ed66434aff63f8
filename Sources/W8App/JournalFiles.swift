import Foundation
import W8System

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The file calls of the sync folder: directories listed without following links, journals read from an offset and
/// appended to durably. A symlink, a FIFO or a device node where a journal should be is never opened as one.
enum JournalFiles {
    /// The names in directory `path`, or nil when it does not exist or is not a directory (a symlink is not).
    static func list(_ path: String) -> [String]? {
        guard isDirectory(path), let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `path` is a directory itself, not a link to one.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The regular file `path` (not followed if a link) as `lstat` sees it: its inode, its change time to the
    /// nanosecond and its size; nil for anything else. A file the sync engine replaced, or changed, differs.
    static func identity(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return "\(info.st_ino):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec):\(info.st_size)"
    }

    /// Creates the directory `path` (mode `mode`) if it does not exist; a link or a file there is an error.
    static func ensureDirectory(_ path: String, mode: mode_t) throws(SystemCallError) {
        if mkdir(path, mode) == 0 { return }
        if errno == EEXIST, isDirectory(path) { return }
        if errno == EEXIST { throw SystemCallError("mkdir", path: path, errno: Errno(rawValue: ENOTDIR)) }
        throw SystemCallError("mkdir", path: path)
    }

    /// The bytes of the regular file `path` from `offset` to its end, and its size; nil when it is missing or is
    /// no regular file.
    static func read(_ path: String, from offset: Int64) throws(SystemCallError) -> (size: Int64, bytes: [UInt8])? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw SystemCallError("open", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int64(info.st_size)
        guard size > offset else { return (size, []) }
        var bytes = [UInt8](repeating: 0, count: Int(size - offset))
        var count = 0
        while count < bytes.count {
            let done = count
            let n = retryingOnInterrupt {
                bytes.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
                }
            }
            if n == -1 { throw SystemCallError("read", path: path) }
            if n == 0 { break }
            count += n
        }
        return (offset + Int64(count), Array(bytes[..<count]))
    }

    /// Appends `lines` to this machine's journal `path` (created 0600), after cutting a last line a killed
    /// process left without its newline, and skipping the lines whose sequence is not past the one the file already
    /// ends with (a process killed after its append and before it cleared its outbox); then fsyncs it (and its directory, when the file is new).
    static func append(_ path: String, lines: [String]) throws(SystemCallError) {
        let descriptor = try systemCall("open", path: path) {
            open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        defer { close(descriptor) }
        var info = stat()
        _ = try systemCall("fstat", path: path) { fstat(descriptor, &info) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemCallError("open", path: path, errno: Errno(rawValue: EINVAL))
        }
        let created = info.st_size == 0
        // The file's last whole line, and a torn tail to cut.
        let size = Int64(info.st_size)
        let tailLength = Int(min(size, 4096))
        var tail = [UInt8](repeating: 0, count: tailLength)
        if tailLength > 0 {
            _ = try systemCall("read", path: path) {
                tail.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress!, tailLength, off_t(size) - off_t(tailLength))
                }
            }
        }
        var end = size
        if let lastNewline = tail.lastIndex(of: 10) {
            end = size - Int64(tail.count - lastNewline - 1)
        } else if size < 4096 {
            end = 0
        }
        if end < size { _ = try systemCall("ftruncate", path: path) { ftruncate(descriptor, off_t(end)) } }
        let kept = tail[..<max(0, tail.count - Int(size - end))]
        let previous = kept.dropLast().lastIndex(of: 10).map { kept.index(after: $0) } ?? kept.startIndex
        let written =
            kept.isEmpty
            ? nil : sequence(of: String(decoding: kept[previous..<kept.index(before: kept.endIndex)], as: UTF8.self))
        let text = lines.filter { line in
            guard let written else { return true }
            return (sequence(of: line) ?? Int64.max) > written
        }.map { $0 + "\n" }.joined()
        var bytes = Array(text.utf8)
        var at = end
        while !bytes.isEmpty {
            let n = try systemCall("write", path: path) {
                bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, off_t(at)) }
            }
            bytes.removeFirst(n)
            at += Int64(n)
        }
        _ = try systemCall("fsync", path: path) { fsync(descriptor) }
        if created { try syncDirectory((path as NSString).deletingLastPathComponent) }
    }

    /// The sequence number in a journal line's `"id":"DEVICE.N"`, without decoding it.
    static func sequence(of line: String) -> Int64? {
        guard let start = line.range(of: "\"id\":\""), let end = line[start.upperBound...].firstIndex(of: "\""),
            let dot = line[start.upperBound..<end].lastIndex(of: ".")
        else { return nil }
        return Int64(line[line.index(after: dot)..<end])
    }

    static func syncDirectory(_ path: String) throws(SystemCallError) {
        let descriptor = try systemCall("open", path: path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        _ = try systemCall("fsync", path: path) { fsync(descriptor) }
    }

    /// Replaces the small file `path` with `text`, atomically.
    static func replace(_ path: String, with text: String) throws(SystemCallError) {
        let writer = try AtomicFileWriter(replacing: path, mode: 0o600)
        try writer.write(Array(text.utf8))
        try writer.commit()
    }
}
