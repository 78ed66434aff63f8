import Foundation
import W8Core
import W8Runtime

extension Runtime {
    /// This command's environment; a `TZ` w8 cannot follow exactly is warned about.
    static func started(changing: Bool = false) -> Runtime { Runtime(changing: changing, warn: warn) }

    /// The environment and the settings it reads from config.toml: what nearly every command starts with.
    static func loaded() throws -> (Runtime, Settings) {
        let runtime = Runtime.started()
        return (runtime, try runtime.settings())
    }
}
