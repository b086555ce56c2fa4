import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport

/// The tutorial's app code (App/), compiled in the Swift 5 language mode against the package,
/// run against the fake TMDB: its `NetworkManager` as written, and its router calls on each
/// transport.
@Suite(.needsFakeTMDB)
struct TutorialAppTests {
    /// What the tutorial's `getNewMovies` hands its caller.
    struct Outcome: Sendable {
        let movies: [Movie]?
        let error: String?
    }

    private func newMovies(page: Int) async -> Outcome {
        await withCheckedContinuation { continuation in
            NetworkManager().getNewMovies(page: page) { movies, error in
                continuation.resume(returning: Outcome(movies: movies, error: error))
            }
        }
    }

    @Test func aPagePastTheLastDecodesAsAnEmptyList() async {
        let outcome = await newMovies(page: 4)
        #expect(outcome.error == nil)
        #expect(outcome.movies?.count == 0)
    }

    /// The fake's page 1 has a movie without a poster, as TMDB's pages do; the tutorial's
    /// `Movie` requires one, so its own decoding error is what the app sees.
    @Test func aMovieWithoutAPosterIsTheTutorialsDecodingError() async {
        let outcome = await newMovies(page: 1)
        #expect(outcome.movies == nil)
        #expect(outcome.error == NetworkResponse.unableToDecode.rawValue)
    }
}

/// The tutorial's `router.request(route) { data, response, error in }` on each transport:
/// `URLSession`'s meaning, exactly once, with the same cancel handle.
@Suite(.needsFakeTMDB)
struct TutorialCompletionTests {
    struct Delivery: @unchecked Sendable {
        let data: Data?
        let response: URLResponse?
        let error: Error?
    }

    final class Deliveries: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Delivery] = []
        func append(_ delivery: Delivery) { lock.withLock { list.append(delivery) } }
        var all: [Delivery] { lock.withLock { list } }
    }

    private let queue = DispatchQueue(label: "tutorial-completion")

    private func deliveries(
        _ router: Router<MovieApi>, _ route: MovieApi, cancel: Bool = false
    ) async throws -> [Delivery] {
        let seen = Deliveries()
        let handle = router.request(route) { data, response, error in
            seen.append(Delivery(data: data, response: response, error: error))
        }
        if cancel { handle.cancel() }
        #expect(await eventually { !seen.all.isEmpty })
        // A second delivery would come right behind the first on the same queue.
        try await Task.sleep(nanoseconds: 100_000_000)
        return seen.all
    }

    @Test(arguments: TestTransport.all)
    func aSuccessIsDataAndAnHTTPURLResponse(_ transport: TestTransport) async throws {
        let router = Router<MovieApi>(transport: transport.make(), callbackQueue: queue)
        let seen = try await deliveries(router, .newMovies(page: 2))
        #expect(seen.count == 1)
        let delivery = try #require(seen.first)
        #expect(delivery.error == nil)
        #expect((delivery.response as? HTTPURLResponse)?.statusCode == 200)
        let page = try JSONSerialization.jsonObject(with: try #require(delivery.data)) as? [String: Any]
        #expect(page?["page"] as? Int == 2)
    }

    /// `popular` carries no API key in the tutorial: the fake answers 401, which URLSession
    /// reports as a response with its body, not as an error.
    @Test(arguments: TestTransport.all)
    func aRefusedStatusIsAResponseNotAnError(_ transport: TestTransport) async throws {
        let router = Router<MovieApi>(transport: transport.make(), callbackQueue: queue)
        let seen = try await deliveries(router, .popular(page: 1))
        #expect(seen.count == 1)
        let delivery = try #require(seen.first)
        #expect(delivery.error == nil)
        #expect((delivery.response as? HTTPURLResponse)?.statusCode == 401)
        #expect(delivery.data.map { !$0.isEmpty } == true)
    }

    @Test(arguments: TestTransport.all)
    func anUnreachableServerIsAnErrorWithoutAResponse(_ transport: TestTransport) async throws {
        let router = Router<MovieApi>(
            transport: transport.make(), callbackQueue: queue,
            mapping: .environment(URL(string: "http://127.0.0.1:\(try closedPort())/3/movie/")!))
        let seen = try await deliveries(router, .newMovies(page: 1))
        #expect(seen.count == 1)
        let delivery = try #require(seen.first)
        #expect(delivery.response == nil)
        #expect(delivery.data == nil)
        #expect(delivery.error is NetworkError)
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aCancelledRequestIsOneCancelledError(_ transport: TestTransport) async throws {
        // A server that never answers: the fake TMDB answered libcurl before `cancel()` came, on
        // a loaded machine, and the request rightly succeeded.
        let hanging = try #require(TestServers.fixture?.appendingPathComponent("hang/3/movie/"))
        let router = Router<MovieApi>(transport: transport.make(), callbackQueue: queue, mapping: .environment(hanging))
        let seen = try await deliveries(router, .newMovies(page: 1), cancel: true)
        #expect(seen.count == 1)
        let delivery = try #require(seen.first)
        #expect(delivery.response == nil)
        guard case .cancelled? = delivery.error as? NetworkError else {
            Issue.record("expected NetworkError.cancelled, got \(String(describing: delivery.error))")
            return
        }
    }

    /// Code written against the tutorial's `NetworkRouter` protocol calls the same form.
    @Test func theTutorialsProtocolFormIsARequirement() async throws {
        func fetch<R: NetworkRouter>(_ router: R, _ route: R.EndPoint) async -> Int? {
            await withCheckedContinuation { continuation in
                router.request(route) { _, response, _ in
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode)
                }
            }
        }
        let router = Router<MovieApi>(callbackQueue: queue)
        #expect(await fetch(router, .newMovies(page: 1)) == 200)
    }
}
