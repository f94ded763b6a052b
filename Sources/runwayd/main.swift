import Foundation
import RunWayDaemon

signal(SIGPIPE, SIG_IGN)
let status = await Daemon.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
