import Foundation
@testable import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Bodies kept in memory have one limit on both transports (issue 23, item 3): an endless body,
/// a gzip bomb and an endless error body end with ``NetworkError/responseTooLarge(limit:)``
/// while the process grows by no more than the limit and a small constant, a body at the limit
/// arrives whole, and the router's deadline ends an endless body on time.
///
/// Each case runs in a child process of its own, where the peak resident memory (`VmHWM`) is
/// that request's alone. A watchdog in the child ends it past 1 GiB, so that a transport
/// without a limit cannot exhaust the machine.
@Suite("Response size limit", .needsFixtureServer, .serialized)
struct ResponseSizeLimitTests {
    enum Case: String, CaseIterable, Sendable {
        /// A 200 whose chunked body never ends.
        case endless
        /// A 1 MiB gzip body that inflates to 1 GiB.
        case gzipBomb
        /// A 500 whose chunked body never ends.
        case endlessError
        /// A body of exactly the limit.
        case atTheLimit
        /// An endless body with the limit raised out of reach, and a 1 s deadline.
        case deadline
    }

    static let limit = URLSessionTransport.defaultMaximumResponseSize
    /// What the process may grow by beyond the limit, per transport: libcurl hands over what it
    /// reads, and the transfer stops within a buffer of the limit (33.5-34.0 MiB peaks for a
    /// 32 MiB limit); FoundationNetworking reads ahead of its delegate queue and cannot be
    /// paused, so a fast endless body keeps arriving until the cancel lands on its work queue:
    /// 36.8-41.7 MiB peaks in 14 quiet runs, 51.3 and 52.2 under load, and 69.3 MiB once in a
    /// CI run on a noisy machine (2026-11-26). Bounded, which is what this checks; not tight.
    static func slack(_ transport: TestTransport) -> Int {
        switch transport {
        case .curl: return 8 * 1_048_576
        case .urlSession: return 48 * 1_048_576
        }
    }
    static let deadline: TimeInterval = 1

    @Test(arguments: Case.allCases, TestTransport.all)
    func bodiesStayWithinTheLimit(_ limitCase: Case, _ transport: TestTransport) async throws {
        if limitCase == .gzipBomb, let fixture = TestServers.fixture {
            // The fixture builds its bomb on the first request: built here, the child's time is
            // the client's (which the limit refuses here too).
            _ = try? await CurlTransport().send(URLRequest(url: fixture.appendingPathComponent("limits/gzip-bomb")))
        }
        try await ChildProcess.expectCleanRun(
            workload: "body-limit \(limitCase.rawValue) \(transport.rawValue)", filter: "ResponseSizeLimitTests/workload",
            timeout: 120, proof: "BODYLIMIT: \(limitCase.rawValue) \(transport.rawValue)")
    }

    @Test(.enabled(if: ChildProcess.requestedWorkload?.hasPrefix("body-limit ") == true, "runs in a child process only"))
    func workload() async throws {
        let words = (ChildProcess.requestedWorkload ?? "").split(separator: " ").map(String.init)
        let limitCase = try #require(Case(rawValue: words[1]))
        let transport = try #require(TestTransport(rawValue: words[2]))
        let name = "BODYLIMIT: \(limitCase.rawValue) \(transport.rawValue)"

        let router = Router<TestEndpoint>(
            transport: Self.transport(transport, limit: limitCase == .deadline ? 4 << 30 : Self.limit),
            callbackQueue: DispatchQueue(label: "limit"))
        let endpoint = Self.endpoint(limitCase)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(ProcessResources.resetPeakResidentBytes())
        let before = try #require(ProcessResources.residentBytes())
        Self.watch(before: before, name: name)

        // Timed where the router delivers, on its callback queue: what the caller's own task
        // needs to resume afterwards is not the router's doing.
        let started = Date()
        let (result, elapsed) = await withCheckedContinuation { continuation in
            router.request(endpoint) { result in
                continuation.resume(returning: (result, Date().timeIntervalSince(started)))
            }
        }
        let growth = (ProcessResources.peakResidentBytes() ?? 0) - before
        let outcome: String
        switch result {
        case .success(let response): outcome = "\(response.statusCode) with \(response.data.count) bytes"
        case .failure(let error): outcome = "\(error)"
        }
        print(String(format: "\(name): %@ after %.3f s, peak growth %.1f MiB", outcome, elapsed, Double(growth) / 1_048_576))

        switch limitCase {
        case .endless, .gzipBomb, .endlessError:
            Self.expectTooLarge(result, transport: transport, bomb: limitCase == .gzipBomb)
            #expect(growth <= Self.limit + Self.slack(transport))
            #expect(elapsed < 10)
        case .atTheLimit:
            #expect((try? result.get().data.count) == Self.limit)
            #expect(growth <= Self.limit + Self.slack(transport))
        case .deadline:
            guard case .failure(.timedOut) = result else {
                Issue.record("expected the deadline, got \(outcome)")
                return
            }
            #expect(elapsed < Self.deadline + TestTiming.bound(0.1))
        }
    }

    static func transport(_ kind: TestTransport, limit: Int) -> any HTTPTransport {
        switch kind {
        case .urlSession: return URLSessionTransport(maximumResponseSize: limit)
        case .curl: return CurlTransport(configuration: .init(maximumResponseSize: limit))
        }
    }

    /// The body was refused with the limit named, on both transports: both decode, and count
    /// the decoded bytes (CurlTransport kept a gzip bomb's 1 MiB undecoded before it asked for
    /// encodings).
    static func expectTooLarge(_ result: Result<Response, NetworkError>, transport: TestTransport, bomb: Bool) {
        switch result {
        case .failure(.responseTooLarge(let limit)):
            #expect(limit == Self.limit)
            #expect("\(NetworkError.responseTooLarge(limit: limit))".contains("maximumResponseSize"))
        default:
            Issue.record("expected NetworkError.responseTooLarge(limit: \(Self.limit)), got \(result)")
        }
    }

    static func endpoint(_ limitCase: Case) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture("limits/endless", timeout: 30)
        var parameters: Parameters = [:]
        switch limitCase {
        case .endless: break
        case .endlessError: parameters["status"] = 500
        case .gzipBomb: endpoint.path = "limits/gzip-bomb"
        case .atTheLimit:
            endpoint.path = "limits/sized"
            parameters["bytes"] = limit
        case .deadline: endpoint.timeout = deadline
        }
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: parameters)
        return endpoint
    }

    /// Ends the process, with a line that says so, once it has grown by more than 1 GiB.
    static func watch(before: Int, name: String) {
        let started = Date()
        Thread.detachNewThread {
            while true {
                if let now = ProcessResources.residentBytes(), now - before > 1 << 30 {
                    print(String(format: "\(name): over the 1 GiB cap after %.3f s; stopped", Date().timeIntervalSince(started)))
                    exit(3)
                }
                usleep(2_000)
            }
        }
    }
}

@Suite("Response size limit defaults")
struct ResponseSizeLimitDefaultTests {
    @Test func bothTransportsKeepUpTo32MiBByDefault() {
        #expect(URLSessionTransport.defaultMaximumResponseSize == 32 * 1_048_576)
        #expect(URLSessionTransport().maximumResponseSize == URLSessionTransport.defaultMaximumResponseSize)
        #expect(CurlTransport().configuration.maximumResponseSize == CurlTransport.defaultMaximumResponseSize)
    }

    @Test func theErrorNamesTheLimitAndHowToRaiseIt() {
        let error = NetworkError(ResponseSizeLimit.error(limit: 1_000))
        guard case .responseTooLarge(limit: 1_000) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(error.description.contains("1000 bytes"))
        #expect(error.description.contains("maximumResponseSize"))
    }
}
