import Testing

@testable import RunWayCLI
