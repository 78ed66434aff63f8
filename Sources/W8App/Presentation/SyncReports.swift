import Foundation
import W8Core
import W8Text

extension Presenter {
    /// `w8 sync start` and `w8 sync now`: what the pass wrote, read and merged.
    public func syncPass(_ pass: SyncPass, folder: String?, json: Bool) -> [String] {
        if json {
            return [
                JSON.object([
                    ("folder", .string(folder)),
                    ("written", .integer(Int64(pass.written))),
                    ("read", .integer(Int64(pass.read))),
                    ("applied", .integer(Int64(pass.applied))),
                    ("rewritten", .array(pass.rewritten.map { .string($0) })),
                    ("new_device", .string(pass.renewedDevice)),
                    ("problems", .array(pass.problems.map { .string($0) })),
                ]).rendered()
            ]
        }
        var lines = [
            tr(
                // TRANSLATORS: after `w8 sync start` or `w8 sync now`; {written}, {read} and {applied} are counts.
                "Synced: {written} events written, {read} read, {applied} merged",
                ["written": pass.written, "read": pass.read, "applied": pass.applied])
        ]
        if let device = pass.renewedDevice {
            // TRANSLATORS: {device} is a new device id; a cloned home directory was found.
            lines.append(tr("Another machine used this machine's id; this machine is now {device}", ["device": device]))
        }
        if !pass.rewritten.isEmpty {
            lines.append(
                // TRANSLATORS: {months} lists journal months such as 2026-12.
                tr("Journal months written again: {months}", ["months": pass.rewritten.joined(separator: ", ")]))
        }
        return lines + pass.problems.map { $0.visibleOnTerminal }
    }

    /// `w8 sync status`.
    public func syncStatus(_ status: SyncStatus, json: Bool) -> [String] {
        if json {
            return [
                JSON.object([
                    ("folder", .string(status.folder)),
                    ("device", .string(status.device)),
                    (
                        "devices",
                        .array(
                            status.devices.map { device in
                                .object([
                                    ("id", .string(device.id)),
                                    ("name", .string(device.name)),
                                    ("this_machine", .bool(device.isThisMachine)),
                                    ("events", .integer(device.events)),
                                    ("last_event", .string(device.lastEvent.map(dates.iso8601))),
                                    ("last_active", .string(device.lastActive.map(dates.iso8601))),
                                    ("clock_ahead", .bool(device.clockAhead)),
                                ])
                            })
                    ),
                    (
                        "waiting",
                        .array(
                            status.waiting.map {
                                .object([("file", .string($0.file)), ("bytes", .integer($0.bytes))])
                            })
                    ),
                    ("conflict_copies", .array(status.conflictCopies.map { .string($0) })),
                    ("problems", .array(status.problems.map { .string($0) })),
                ]).rendered()
            ]
        }
        guard let folder = status.folder else {
            // TRANSLATORS: `w8 sync status` on a machine in no sync folder.
            return [tr("Not syncing. Start with: w8 sync start FOLDER")]
        }
        // TRANSLATORS: {folder} is a path.
        var lines = [tr("Folder: {folder}", ["folder": folder.visibleOnTerminal])]
        for device in status.devices {
            let name = (device.name ?? "?").visibleOnTerminal
            let last = device.lastEvent.map(dates.short) ?? "-"
            var line = tr(
                // TRANSLATORS: one device in `w8 sync status`: its name, its id, its events and the date of its last.
                "{name} ({id}): {events} events, last {last}",
                ["name": name, "id": device.id, "events": device.events, "last": last])
            // TRANSLATORS: follows a device's line in `w8 sync status`.
            if device.isThisMachine { line += " " + tr("(this machine)") }
            lines.append(line)
        }
        for waiting in status.waiting {
            lines.append(
                tr(
                    // TRANSLATORS: {file} is a journal; {bytes} a count of bytes the sync engine has not completed yet.
                    "Waiting to be complete: {file} ({bytes} bytes)",
                    ["file": waiting.file.visibleOnTerminal, "bytes": waiting.bytes]))
        }
        for copy in status.conflictCopies {
            // TRANSLATORS: {file} is a conflict copy made by the sync engine.
            lines.append(tr("Conflict copy read: {file}", ["file": copy.visibleOnTerminal]))
        }
        return lines + status.problems.map { $0.visibleOnTerminal }
    }
}

/// The error of `w8 sync now` and `w8 sync stop` on a machine in no folder.
public var notSyncing: String {
    // TRANSLATORS: `w8 sync now` or `w8 sync stop` on a machine in no sync folder.
    tr("this machine is in no sync folder; start with: w8 sync start FOLDER")
}

/// What `w8 sync stop` says.
public func stoppedMessage(_ folder: String) -> String {
    tr(
        // TRANSLATORS: after `w8 sync stop`; {folder} is the sync folder.
        "Left {folder}; the data here and this machine's journal there stay",
        ["folder": folder.visibleOnTerminal])
}
