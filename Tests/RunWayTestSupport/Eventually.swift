/// Waits for `condition`, up to `seconds`: a hang guard, not a measurement. The caller checks
/// the condition itself afterwards (or uses the result), so a timeout fails the test that
/// needed it rather than passing silently.
@discardableResult
public func eventually(upTo seconds: Double = 30, _ condition: () async -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    while clock.now < deadline {
        if await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
