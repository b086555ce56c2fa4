import Foundation
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A clock the test moves by hand: every cache rule is checked at exact ages.
final class TestClock: @unchecked Sendable {
    // @unchecked: `current` is read and written only under `lock`.
    private let lock = NSLock()
    private var current: Date

    /// 2023-11-14 22:13:20 UTC, a whole second, so HTTP-dates round-trip exactly.
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    init(_ start: Date = TestClock.start) {
        current = start
    }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    var read: @Sendable () -> Date { { [self] in now } }
}

/// `date` as an IMF-fixdate, the form servers send.
func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

func makeRequest(_ url: String = "https://api.example.com/items/1", method: String = "GET", headers: [String: String] = [:])
    -> URLRequest
{
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
}

func makeResponse(to request: URLRequest, status: Int = 200, headers: [String: String] = [:], body: String = "")
    -> Response
{
    let http = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    return Response(request: request, httpResponse: http, data: Data(body.utf8))
}

/// A server for the cache to talk to: answers each request the cache lets through with
/// `answer`, and remembers what it was sent.
final class FakeOrigin: @unchecked Sendable {
    // @unchecked: every stored property is accessed under `lock`.
    private let lock = NSLock()
    private var sent: [URLRequest] = []
    private let answer: @Sendable (URLRequest, Int) -> Response

    /// `answer(request, n)` answers the n-th request (from 1).
    init(_ answer: @escaping @Sendable (URLRequest, Int) -> Response) {
        self.answer = answer
    }

    var requests: [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    var count: Int { requests.count }

    func respond(to request: URLRequest) -> Response {
        lock.lock()
        sent.append(request)
        let number = sent.count
        lock.unlock()
        return answer(request, number)
    }
}

/// One request through `cache` the way the router's stage will do it.
struct Exchange {
    var response: Response?
    var outcome: CacheOutcome?
    /// The request sent to the origin; `nil` when the cache answered or refused.
    var sent: URLRequest?
    var notCached = false

    var body: String? { response.map { String(decoding: $0.data, as: UTF8.self) } }
}

@discardableResult
func exchange(
    _ cache: HTTPCache, _ request: URLRequest, policy: HTTPCache.Policy = .useProtocolCachePolicy,
    redaction: Redaction = .default, origin: FakeOrigin
) -> Exchange {
    switch cache.lookup(request, policy: policy, redaction: redaction) {
    case .hit(let response, let outcome):
        return Exchange(response: response, outcome: outcome)
    case .send(let sent, let pending):
        let (response, outcome) = cache.complete(pending, with: origin.respond(to: sent))
        return Exchange(response: response, outcome: outcome, sent: sent)
    case .notCached:
        return Exchange(notCached: true)
    }
}

/// A memory-only cache on `clock`.
func memoryCache(_ clock: TestClock, capacity: Int = 1_048_576, configure: (inout HTTPCache.Configuration) -> Void = { _ in })
    throws -> HTTPCache
{
    var configuration = HTTPCache.Configuration(memoryCapacity: capacity, clock: clock.read)
    configure(&configuration)
    return try HTTPCache(configuration: configuration)
}

/// An origin that answers 200 with `headers` and a body naming the request's number, so a
/// test can tell which answer it got.
func countingOrigin(_ headers: [String: String] = [:]) -> FakeOrigin {
    FakeOrigin { request, number in makeResponse(to: request, headers: headers, body: "response \(number)") }
}
