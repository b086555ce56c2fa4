import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 10,000 requests through one router on one CurlTransport, 32 in flight, a fifth of them
/// uploads, a random third cancelled at random moments: each completes exactly once, and the
/// process gives back every descriptor and byte it took. Runs in a child process (see
/// ``ChildProcess``); Scripts/test runs it on its own, and again under each sanitizer.
@Suite("CurlTransport stress", .needsFixtureServer, .serialized, .timeLimit(.minutes(3)))
struct CurlTransportStress {
    enum Workload: String, Sendable {
        case randomCancellations
        case noCancellation
    }

    static let requests = 10_000
    static let inFlight = 32
    static let warmUpRequests = 200
    /// A leak of one socket per cancelled request would be thousands.
    static let fileDescriptorAllowance = 40
    /// Scaled under the sanitizers, whose shadow memory grows with the allocations they track.
    static let residentAllowance = Int(10 * 1_048_576 * TestTiming.factor)
    static let childTimeout: TimeInterval = 50 * TestTiming.factor

    @Test func tenThousandRequestsWithUploadsAndRandomCancellationsCompleteExactlyOnceAndLeakNothing() async throws {
        try await Self.runInChildProcess(.randomCancellations)
    }

    @Test func tenThousandRequestsWithUploadsCompleteExactlyOnceAndLeakNothing() async throws {
        try await Self.runInChildProcess(.noCancellation)
    }

    @Test(.childWorkload(Workload.randomCancellations.rawValue))
    func childRandomCancellations() async throws {
        try await Self.run(.randomCancellations)
    }

    @Test(.childWorkload(Workload.noCancellation.rawValue))
    func childNoCancellation() async throws {
        try await Self.run(.noCancellation)
    }

    static func runInChildProcess(_ workload: Workload) async throws {
        let name = workload == .randomCancellations ? "childRandomCancellations" : "childNoCancellation"
        try await ChildProcess.expectCleanRun(
            workload: workload.rawValue, filter: "CurlTransportStress/\(name)", timeout: childTimeout, proof: "STRESS: fds")
    }

    // MARK: The workload, in the child

    struct Endpoint: EndPointType {
        let baseURL: URL
        let upload: Data?
        var path: String { upload == nil ? "fast" : "upload" }
        var httpMethod: HTTPMethod { upload == nil ? .get : .post }
        var task: HTTPTask { upload.map { .uploadData($0, contentType: "application/octet-stream") } ?? .request }
        var headers: HTTPHeaders? { nil }
        var timeout: TimeInterval { 10 }
    }

    enum Cancellation: Sendable {
        case none
        case beforeStart
        case midFlight(nanoseconds: UInt64)
    }

    struct Plan: Sendable {
        let isUpload: Bool
        let viaCompletion: Bool
        let cancellation: Cancellation
    }

    static func run(_ workload: Workload) async throws {
        let server = try #require(TestServers.fixture)
        let router = Router<Endpoint>(transport: CurlTransport(), callbackQueue: DispatchQueue(label: "stress", attributes: .concurrent))
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix64(seed: seed)
        let uploadBody = Data(count: 16 * 1024)

        func plans(_ count: Int, cancelling: Bool, using generator: inout SplitMix64) -> [Plan] {
            (0..<count).map { index in
                var cancellation = Cancellation.none
                if cancelling, Int.random(in: 0..<3, using: &generator) == 0 {
                    cancellation =
                        Bool.random(using: &generator)
                        ? .beforeStart : .midFlight(nanoseconds: UInt64.random(in: 0...8_000_000, using: &generator))
                }
                return Plan(isUpload: index % 5 == 0, viaCompletion: index.isMultiple(of: 2), cancellation: cancellation)
            }
        }

        let warmUp = try await send(plans(warmUpRequests, cancelling: false, using: &generator), server: server, body: uploadBody, router: router)
        #expect(warmUp.succeeded == warmUpRequests, "warm-up: \(warmUp.summary)")
        try await Task.sleep(nanoseconds: 200_000_000)
        let before = try #require(ProcessResources.Snapshot.now())

        print("STRESS: \(workload.rawValue), seed \(seed), \(requests) requests")
        let planned = plans(requests, cancelling: workload == .randomCancellations, using: &generator)
        let started = Date()
        let tally = try await send(planned, server: server, body: uploadBody, router: router)
        let duration = Date().timeIntervalSince(started)

        // A late duplicate would arrive after the first completion.
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(tally.completedOnce == requests, "\(tally.summary)")
        #expect(tally.completedTwice == 0, "\(tally.summary)")
        #expect(router.inFlightCount == 0)
        #expect(tally.unexpected.isEmpty, "unexpected outcomes, e.g. \(tally.unexpected.prefix(3))")
        #expect(tally.uncancelledButFailed == 0, "\(tally.summary)")

        try await Task.sleep(nanoseconds: 1_000_000_000)
        let after = try #require(ProcessResources.Snapshot.now())
        withExtendedLifetime(router) {}
        print(String(format: "STRESS: %d requests, %d in flight, in %.2f s (%.0f req/s)", requests, inFlight, duration, Double(requests) / duration))
        print("STRESS: \(tally.summary)")
        print(
            "STRESS: fds after warm-up \(before.fileDescriptors), after run \(after.fileDescriptors); threads \(before.threads) → \(after.threads); "
                + String(format: "RSS after warm-up %.1f MiB, after run %.1f MiB", before.residentMiB, after.residentMiB))
        #expect(after.fileDescriptors <= before.fileDescriptors + fileDescriptorAllowance, "\(before) → \(after)")
        if ProcessInfo.processInfo.environment["NETWORKLAYER_SANITIZER"] == "address" {
            // AddressSanitizer holds freed memory in quarantine (256 MiB by default), so RSS
            // says nothing here; its leak check at exit replaces this one.
            print("STRESS: RSS not compared under AddressSanitizer (quarantine); LeakSanitizer checks at exit")
        } else {
            #expect(after.residentBytes <= before.residentBytes + residentAllowance, "\(before) → \(after)")
        }
    }

    static func send(_ plans: [Plan], server: URL, body: Data, router: Router<Endpoint>) async throws -> Tally {
        let tally = Tally(plans)
        let cursor = Cursor(count: plans.count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<inFlight {
                group.addTask {
                    while let index = cursor.next() {
                        let plan = plans[index]
                        let endpoint = Endpoint(baseURL: server, upload: plan.isUpload ? body : nil)
                        await send(plan, index: index, endpoint: endpoint, router: router, tally: tally)
                    }
                }
            }
        }
        return tally
    }

    private static func send(_ plan: Plan, index: Int, endpoint: Endpoint, router: Router<Endpoint>, tally: Tally) async {
        if plan.viaCompletion {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let first = Locked(false)
                let handle = router.request(endpoint) { result in
                    tally.record(result, for: index)
                    if first.swap(true) == false { continuation.resume() }
                }
                switch plan.cancellation {
                case .none: break
                case .beforeStart: handle.cancel()
                case .midFlight(let nanoseconds):
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { handle.cancel() }
                }
            }
        } else {
            let task = Task { () -> Result<Response, NetworkError> in
                do {
                    return .success(try await router.request(endpoint))
                } catch let error as NetworkError {
                    return .failure(error)
                } catch {
                    return .failure(.underlying(error))
                }
            }
            switch plan.cancellation {
            case .none: break
            case .beforeStart: task.cancel()
            case .midFlight(let nanoseconds):
                try? await Task.sleep(nanoseconds: nanoseconds)
                task.cancel()
            }
            tally.record(await task.value, for: index)
        }
    }

    /// Every completion of every request, counted per request.
    final class Tally: @unchecked Sendable {
        private let plans: [Plan]
        private var counts: [Int]
        private var outcomes: [String?]
        private let lock = NSLock()

        init(_ plans: [Plan]) {
            self.plans = plans
            counts = Array(repeating: 0, count: plans.count)
            outcomes = Array(repeating: nil, count: plans.count)
        }

        func record(_ result: Result<Response, NetworkError>, for index: Int) {
            let outcome: String
            switch result {
            case .success(let response) where response.statusCode == 200: outcome = "ok"
            case .failure(.cancelled): outcome = "cancelled"
            default: outcome = "\(result)"
            }
            lock.withLock {
                counts[index] += 1
                if outcomes[index] == nil { outcomes[index] = outcome }
            }
        }

        private func read<T>(_ body: ([Int], [String?]) -> T) -> T { lock.withLock { body(counts, outcomes) } }

        var completedOnce: Int { read { counts, _ in counts.filter { $0 == 1 }.count } }
        var completedTwice: Int { read { counts, _ in counts.filter { $0 > 1 }.count } }
        var succeeded: Int { read { _, outcomes in outcomes.filter { $0 == "ok" }.count } }
        var cancelled: Int { read { _, outcomes in outcomes.filter { $0 == "cancelled" }.count } }
        var unexpected: [String] { read { _, outcomes in outcomes.compactMap { $0 }.filter { $0 != "ok" && $0 != "cancelled" } } }
        var uncancelledButFailed: Int {
            read { _, outcomes in
                zip(plans, outcomes).filter { plan, outcome in
                    if case .none = plan.cancellation { return outcome != "ok" }
                    return false
                }.count
            }
        }

        var summary: String {
            let uploads = plans.filter(\.isUpload).count
            return "\(plans.count) requests (\(uploads) uploads): \(completedOnce) completed once, \(completedTwice) more than once; "
                + "\(succeeded) succeeded, \(cancelled) cancelled, \(unexpected.count) other"
        }
    }

    final class Cursor: @unchecked Sendable {
        private var position = 0
        private let count: Int
        private let lock = NSLock()

        init(count: Int) { self.count = count }

        func next() -> Int? {
            lock.withLock {
                guard position < count else { return nil }
                position += 1
                return position - 1
            }
        }
    }

    /// A seedable generator, so that a failing run's printed seed says what was cancelled when.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A flag swapped under a lock.
    final class Locked: @unchecked Sendable {
        private var value: Bool
        private let lock = NSLock()
        init(_ value: Bool) { self.value = value }
        func swap(_ new: Bool) -> Bool {
            lock.withLock {
                let old = value
                value = new
                return old
            }
        }
    }
}
