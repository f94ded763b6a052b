import Foundation

extension Thread {
    /// Runs `body` on a new thread of its own, named `name` (as `top -H` and a debugger show it).
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
