import RunWayCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let status = await RunWayCommand.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
