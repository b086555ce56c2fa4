import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    /// Cancelling a file upload at a random moment must never end the process.
    ///
    /// FoundationNetworking reads a file body (`uploadTask(fromFile:)`) with DispatchIO, pausing
    /// libcurl while a read is pending and un-pausing it when the read completes, through a
    /// `try!` (EasyHandle.swift:484). When a cancel has removed the handle in between, libcurl
    /// answers CURLE_BAD_FUNCTION_ARGUMENT (43) and the process traps: about once in 50-100
    /// cancels. The workload runs in a child process, so a trap fails this test instead of the run.
    /// It runs over each transport: CurlTransport reads files itself, and must not trap either.
    @Suite("Upload cancellation", .needsFixtureServer, .timeLimit(.minutes(2)))
    struct UploadCancellationTests {
        static let uploads = 2_000
        static let inFlight = 8
        static let fileSize = 1_048_576

        /// The transport this child process was started for: the workload's name ends with it
        /// (`"upload-cancellation curl"`).
        static func requestedTransport(for workload: String) -> TestTransport? {
            guard let requested = ChildProcess.requestedWorkload, requested.hasPrefix(workload + " ") else { return nil }
            return TestTransport(rawValue: String(requested.dropFirst(workload.count + 1)))
        }

        @Test(arguments: TestTransport.all)
        func twoThousandFileUploadsCancelledAtRandomMomentsNeverCrash(_ transport: TestTransport) async throws {
            try await ChildProcess.expectCleanRun(
                workload: "upload-cancellation \(transport)", filter: "UploadCancellationTests/uploadCancellationWorkload",
                timeout: 100, proof: "UPLOADS: done")
        }

        @Test(arguments: TestTransport.all)
        func largeMultipartFormsCancelledAtRandomMomentsNeverCrash(_ transport: TestTransport) async throws {
            try await ChildProcess.expectCleanRun(
                workload: "multipart-cancellation \(transport)", filter: "UploadCancellationTests/multipartCancellationWorkload",
                timeout: 100, proof: "UPLOADS: done")
        }

        @Test(.enabled(if: requestedTransport(for: "upload-cancellation") != nil, "runs in a child process only"))
        func uploadCancellationWorkload() async throws {
            let transport = try #require(Self.requestedTransport(for: "upload-cancellation"))
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("upload.bin")
            try Data(repeating: 0x5A, count: Self.fileSize).write(to: file)
            var endpoint = TestEndpoint.fixture("upload", .post, timeout: 20)
            endpoint.task = .uploadFile(file, contentType: "application/octet-stream")
            try await Self.cancelRandomly(endpoint, count: Self.uploads, over: transport)
        }

        @Test(.enabled(if: requestedTransport(for: "multipart-cancellation") != nil, "runs in a child process only"))
        func multipartCancellationWorkload() async throws {
            let transport = try #require(Self.requestedTransport(for: "multipart-cancellation"))
            var form = MultipartFormData()
            form.append("field", name: "name")
            form.append(Data(repeating: 0x33, count: Int(MultipartFormData.streamingThreshold) + 1024), name: "blob", fileName: "b.bin")
            var endpoint = TestEndpoint.fixture("upload", .post, timeout: 20)
            endpoint.task = .uploadMultipart(form)
            try await Self.cancelRandomly(endpoint, count: 200, over: transport)
        }

        /// Sends `endpoint` `count` times, `inFlight` at a time, cancelling each at a random moment
        /// between its start and eight times a lone upload's duration (so that some complete);
        /// every completion must come exactly once, as success or `.cancelled`.
        static func cancelRandomly(_ endpoint: TestEndpoint, count: Int, over transport: TestTransport) async throws {
            let router = transport.router(callbackQueue: DispatchQueue(label: "uploads", attributes: .concurrent))
            var durations: [UInt64] = []
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await router.request(endpoint)
                durations.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            // Eight at a time take longer than one alone: eight lone durations leave room for both.
            let window = durations.sorted()[2] * 8
            let cursor = Cursor(count: count)
            let outcomes = Locked<(cancelled: Int, succeeded: Int, other: [String])>((0, 0, []))
            let started = Date()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<inFlight {
                    group.addTask {
                        while cursor.next() != nil {
                            let task = Task { try await router.request(endpoint) }
                            try? await Task.sleep(nanoseconds: UInt64.random(in: 0...window))
                            task.cancel()
                            let result = await task.result
                            outcomes.withLock {
                                switch result {
                                case .success: $0.succeeded += 1
                                case .failure(NetworkError.cancelled): $0.cancelled += 1
                                case .failure(let error): $0.other.append("\(error)")
                                }
                            }
                        }
                    }
                }
            }
            let (cancelled, succeeded, other) = outcomes.withLock { $0 }
            #expect(other.isEmpty, "unexpected outcomes: \(other.prefix(3))")
            #expect(cancelled + succeeded + other.count == count)
            #expect(cancelled > count / 10, "too few cancellations landed mid-upload to prove anything: \(cancelled)")
            #expect(router.inFlightCount == 0)
            print(
                "UPLOADS: done: \(count) uploads over \(transport) cancelled within \(window / 1_000_000) ms, \(cancelled) cancelled, \(succeeded) completed, in \(String(format: "%.1f", Date().timeIntervalSince(started))) s"
            )
        }
    }
}
