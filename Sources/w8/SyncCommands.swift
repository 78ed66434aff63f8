import ArgumentParser
import Foundation
import W8App
import W8Core
import W8Runtime

extension W8 {
    /// `w8 sync`: one history on every machine, through a folder a sync engine keeps in step.
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            .sync, subcommands: [SyncStart.self, SyncStatusCommand.self, SyncNow.self, SyncStop.self])
    }

    struct SyncStart: ParsableCommand {
        static let configuration = CommandConfiguration(.syncStart)

        @Argument(help: "The folder your sync engine shares (Syncthing, Nextcloud); w8 writes under DIR/w8trackr.")
        var directory: String

        @OptionGroup var output: OutputOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let folder = runtime.syncFolder(database: try runtime.database(mergingSync: false))
            let pass = try folder.start(folder: absolute(directory))
            show(
                runtime.presenter(settings).syncPass(
                    pass, folder: try folder.database.syncSelf()?.folder, json: output.json))
        }

        func absolute(_ path: String) -> String {
            path.hasPrefix("/")
                ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        }
    }

    struct SyncStatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(.syncStatus)

        @OptionGroup var output: OutputOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let status = try runtime.syncFolder(database: try runtime.database(mergingSync: false)).status()
            show(runtime.presenter(settings).syncStatus(status, json: output.json))
        }
    }

    struct SyncNow: ParsableCommand {
        static let configuration = CommandConfiguration(.syncNow)

        @OptionGroup var output: OutputOptions

        func run() throws {
            let (runtime, settings) = try Runtime.loaded()
            let folder = runtime.syncFolder(database: try runtime.database(mergingSync: false))
            let me = try folder.database.syncSelf()
            guard me?.folder != nil else { throw AppError.unavailable(notSyncing) }
            let pass = try folder.pass(settings: settings)
            show(runtime.presenter(settings).syncPass(pass, folder: me?.folder, json: output.json))
        }
    }

    struct SyncStop: ParsableCommand {
        static let configuration = CommandConfiguration(.syncStop)

        @OptionGroup var output: OutputOptions

        func run() throws {
            let runtime = Runtime.started()
            guard let folder = try runtime.syncFolder(database: try runtime.database(mergingSync: false)).stop() else {
                throw AppError.unavailable(notSyncing)
            }
            if output.json {
                show([JSON.object([("folder", .string(folder)), ("stopped", .bool(true))]).rendered()])
            } else {
                show([stoppedMessage(folder)])
            }
        }
    }
}
