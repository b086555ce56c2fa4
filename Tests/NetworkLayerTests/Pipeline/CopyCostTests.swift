import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The values that a request's stages copy stay short: every copy is a `memcpy` of the value
/// and a count for each reference in it, and a stubbed request's cost rests on these sizes.
/// Before the constants moved into classes: 384, 170, 130, 140 and 48 bytes. (`Exchange` is
/// qualified: the cache tests have a type of that name.)
@Suite("Copy cost")
struct CopyCostTests {
    @Test func theValuesCopiedAtEveryStageStayShort() {
        #expect(MemoryLayout<NetworkLayer.Exchange>.size <= 128)
        #expect(MemoryLayout<RequestContext>.size <= 32)
        #expect(MemoryLayout<Response>.size <= 72)
        #expect(MemoryLayout<Result<Response, NetworkError>>.size <= 80)
    }

    /// A router keeps a stub as `any HTTPTransport` and `any CallbackTransport`: up to three
    /// words it sits in each existential, longer it is boxed in each.
    @Test func aStubFitsInAnExistentialWithoutABox() {
        #expect(MemoryLayout<StubTransport>.size <= 3 * MemoryLayout<Int>.size)
    }
}
