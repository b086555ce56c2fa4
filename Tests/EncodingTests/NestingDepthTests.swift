import Encoding
import Foundation
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parameters nested deeper than 512 levels are an error naming where, not a stack overflow.
///
/// The encoders used to recurse once per level and crashed with SIGSEGV at about 10,000 levels;
/// the workload runs in a child process so that such a crash fails this test instead of the run.
@Suite("Nesting depth")
struct NestingDepthTests {
    static func nested(levels: Int) -> Parameters {
        var parameters: Parameters = ["leaf": 1]
        for _ in 1..<levels { parameters = ["n": parameters] }
        return parameters
    }

    @Test func tenThousandLevelsFailWithATypedErrorInAChildProcess() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "deep-nesting", filter: "NestingDepthTests/deepNestingWorkload", timeout: 60, proof: "NESTING: done")
    }

    @Test(.childWorkload("deep-nesting"))
    func deepNestingWorkload() throws {
        let deep = Self.nested(levels: 10_000)
        var request = URLRequest(url: URL(string: "https://example.invalid/x")!)
        request.httpMethod = "POST"
        #expect(throws: ParameterEncodingError.self) { try JSONParameterEncoder().encode(urlRequest: &request, with: deep) }
        #expect(throws: ParameterEncodingError.self) { try URLParameterEncoder().encode(urlRequest: &request, with: deep) }
        #expect(throws: ParameterEncodingError.self) {
            try JSONParameterEncoder().encode(urlRequest: &request, withJSONArray: [Self.nested(levels: 10_000)])
        }
        print("NESTING: done")
    }

    /// On Linux `as? [Any]` bridged an NSArray or NSDictionary whole and recursively before the
    /// depth check: a cyclic one, or 100,000 nested ones, overflowed the stack (SIGSEGV).
    @Test func cyclicAndDeepFoundationContainersFailWithATypedErrorInAChildProcess() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "foundation-containers", filter: "NestingDepthTests/foundationContainersWorkload", timeout: 120,
            proof: "FOUNDATION: done")
    }

    @Test(.childWorkload("foundation-containers"))
    func foundationContainersWorkload() throws {
        let cyclicArray = NSMutableArray()
        cyclicArray.add(cyclicArray)
        let cyclicDictionary = NSMutableDictionary()
        cyclicDictionary["self"] = cyclicDictionary
        var deep = NSArray()
        for _ in 0..<100_000 { deep = NSArray(object: deep) }
        // Never released: releasing 100,000 nested NSArrays recurses once per level in
        // Foundation itself, which is not what this test is about.
        _ = Unmanaged.passRetained(deep)
        for (name, container) in [("cyclic NSMutableArray", cyclicArray as Any), ("cyclic NSMutableDictionary", cyclicDictionary), ("deep NSArray", deep)] {
            #expect(throws: ParameterEncodingError.self, "\(name)") { try Parameters(validating: ["a": container]) }
            #expect(throws: ParameterEncodingError.self, "\(name)") { try [any Sendable](validating: [container]) }
            do {
                _ = try Parameters(validating: ["a": container])
            } catch {
                guard case .nestingTooDeep(_, let limit) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(limit == 512)
            }
        }
        // NSArray is not Sendable, but code in Swift 5 mode puts one into Parameters with a
        // warning at most; Sendable is a marker with no run-time trace, so `any Sendable` has the
        // layout of `Any` and this copy is what that code does.
        for (name, value) in [("cyclic NSMutableArray", cyclicArray as Any), ("cyclic NSMutableDictionary", cyclicDictionary), ("deep NSArray", deep)] {
            let container = withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: (any Sendable).self) }
            var request = URLRequest(url: URL(string: "https://example.invalid/x")!)
            request.httpMethod = "POST"
            #expect(throws: ParameterEncodingError.self, "\(name)") { try JSONParameterEncoder().encode(urlRequest: &request, with: ["a": container]) }
            #expect(throws: ParameterEncodingError.self, "\(name)") { try URLParameterEncoder().encode(urlRequest: &request, with: ["a": container]) }
            #expect(throws: ParameterEncodingError.self, "\(name)") { try JSONParameterEncoder().encode(urlRequest: &request, withJSONArray: [container]) }
        }
        // Cycles break themselves here rather than leak, so that a leak checker stays quiet.
        cyclicArray.removeAllObjects()
        cyclicDictionary.removeAllObjects()
        print("FOUNDATION: done")
    }

    @Test func theErrorNamesTheKeyPathAndTheLimit() throws {
        let deep = Self.nested(levels: 600)
        for encode in [
            { (request: inout URLRequest) throws in try JSONParameterEncoder().encode(urlRequest: &request, with: deep) },
            { (request: inout URLRequest) throws in try URLParameterEncoder().encode(urlRequest: &request, with: deep) },
        ] {
            var request = URLRequest(url: URL(string: "https://example.invalid/x")!)
            do {
                try encode(&request)
                Issue.record("600 levels were encoded")
            } catch let error as ParameterEncodingError {
                guard case .nestingTooDeep(let keyPath, let limit) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(limit == 512)
                #expect(keyPath.hasPrefix("n.n.n"))
                #expect(keyPath.count < 200, "a 512-level key path is shortened: \(keyPath.count) characters")
                #expect(error.localizedDescription.contains("512"))
            }
        }
    }

    @Test func fiveHundredLevelsAreStillEncoded() throws {
        let parameters = Self.nested(levels: 500)
        var request = URLRequest(url: URL(string: "https://example.invalid/x")!)
        request.httpMethod = "POST"
        try JSONParameterEncoder().encode(urlRequest: &request, with: parameters)
        #expect(request.httpBody?.count ?? 0 > 500 * 6)
        #expect(try URLParameterEncoder().query(from: parameters).hasSuffix("=1"))
    }
}
