import Foundation
import W8Runtime

// Start-up trick, bench row "w8 add posting a milestone / notify-send"; bench/README.md, "Start-up tricks".
/// Ends a command's process: closes the databases `runtime` opened, flushes standard output and exits with
/// `status`, before the deinitialisers a return would run (GRDB's would scan the binary and start two threads).
func finish(_ runtime: Runtime, status: Int32 = 0) -> Never {
    runtime.closeDatabases()
    if status == 0 { flushStandardOutput() }
    exit(status)
}
