import RunWayControl
import Testing

@Suite("Control contract")
struct ContractTests {
    @Test func theWireHasAVersion() { #expect(ControlContract.protocolVersion == 1) }
}
