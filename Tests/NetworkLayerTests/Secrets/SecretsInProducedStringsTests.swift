import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Found from outside by helper-26 (2026-11-26): secrets that reached strings the package makes.
@Suite("Secrets in the strings the package makes", .needsFixtureServer, .needsHTTPBin)
struct SecretsInProducedStringsTests {
    // MARK: Finding 1: a token in a URL's fragment

    /// An OAuth implicit grant (RFC 6749 §4.2.2) returns its token in the fragment of the
    /// redirect's Location, by the same names a query uses: `#access_token=…&token_type=bearer`.
    @Test func aSecretInAURLsFragmentIsHiddenLikeOneInItsQuery() {
        let redaction = Redaction.default
        let callback = "https://app.example/cb#access_token=tok-SECRET-fragment&token_type=bearer&state=xyz"
        let url = URL(string: callback)!
        #expect(!redaction.url(url).contains("tok-SECRET-fragment"), "\(redaction.url(url))")
        #expect(redaction.url(url).contains("state=xyz"))
        for name in ["Location", "Content-Location", "Referer"] {
            let shown = redaction.header(name, callback)
            #expect(!shown.contains("tok-SECRET-fragment"), "\(name): \(shown)")
        }
        let error = NetworkError(URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        guard case .transport(let kept) = error else { return }
        #expect(kept.failingURL?.absoluteString.contains("tok-SECRET-fragment") != true, "\(kept.userInfo)")
    }

    /// A redirect whose Location carries the token in its fragment: the router follows it, and
    /// the default logger's summary line and the response's description showed the token.
    @Test(arguments: TestTransport.all)
    func aTokenInARedirectsFragmentIsNotLoggedOrDescribed(_ transport: TestTransport) async throws {
        let lines = Lines()
        let router = transport.router(plugins: [NetworkLoggerPlugin(sink: { lines.append($0) })])
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "/echo#access_token=tok-SECRET-fragment"])
        let response = try await router.request(endpoint)
        #expect(!response.description.contains("tok-SECRET-fragment"), "\(response)")
        let summary = try #require(lines.all.last)
        #expect(!summary.contains("tok-SECRET-fragment"), "\(summary)")
    }

    /// The same Location, not followed: the logger's header line showed the token.
    @Test(arguments: TestTransport.all)
    func aTokenInALocationsFragmentIsNotLoggedWithTheHeaders(_ transport: TestTransport) async throws {
        let lines = Lines()
        let router = transport.router(
            plugins: [NetworkLoggerPlugin(options: [.headers], sink: { lines.append($0) })], redirects: .doNotFollow)
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.acceptableStatusCodes = [302]
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json,
            urlParameters: ["url": "https://app.example/cb#access_token=tok-SECRET-fragment&token_type=bearer"])
        let response = try await router.request(endpoint)
        #expect(response.header("Location")?.contains("tok-SECRET-fragment") == true)
        // The request line shows the token as the value of `url`, a name that is no secret: the
        // Location line is the one that must not.
        let location = try #require(lines.all.flatMap { $0.split(separator: "\n") }.first { $0.contains("Location:") })
        #expect(!location.contains("tok-SECRET-fragment"), "\(location)")
    }

    /// A redirect to an origin that refuses the connection: the logger's failure line showed
    /// the failing URL's fragment (URLSessionTransport keeps the URL; CurlTransport shows its path).
    @Test(arguments: TestTransport.all)
    func aTokenInAFailedRedirectsFragmentIsNotLogged(_ transport: TestTransport) async throws {
        let lines = Lines()
        let router = transport.router(plugins: [NetworkLoggerPlugin(sink: { lines.append($0) })])
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json,
            urlParameters: ["url": "http://127.0.0.1:\(try closedPort())/cb#access_token=tok-SECRET-fragment"])
        do {
            _ = try await router.request(endpoint)
            Issue.record("expected a refused connection")
        } catch {
            for string in ["\(error)", String(reflecting: error)] {
                #expect(!string.contains("tok-SECRET-fragment"), "\(string)")
            }
            if case .transport(let urlError) = error {
                #expect(!"\(urlError.userInfo)".contains("tok-SECRET-fragment"), "\(urlError.userInfo)")
            }
        }
        let failure = try #require(lines.all.last { $0.hasPrefix("✕") })
        #expect(!failure.contains("tok-SECRET-fragment"), "\(failure)")
    }

    // MARK: Finding 2: credentials a server echoes in a body shown on request

    /// httpbin's `/headers`, like many debugging endpoints, answers with the request's headers:
    /// a logger with `.bodies` logged the plugin's bearer token, which the request line hides.
    @Test(arguments: TestTransport.all)
    func theLoggersBodiesDoNotShowACredentialTheServerEchoes(_ transport: TestTransport) async throws {
        let lines = Lines()
        let router = transport.router(plugins: [
            AccessTokenPlugin(token: { "tok-SECRET-echoed" }),
            NetworkLoggerPlugin(options: [.bodies], sink: { lines.append($0) }),
        ])
        let response = try await router.request(.httpbin("headers"))
        #expect(response.text.contains("tok-SECRET-echoed"), "the server echoed the token")
        let text = lines.all.joined(separator: "\n")
        #expect(!text.contains("tok-SECRET-echoed"), "\(text)")
    }

    /// A 401 whose body repeats the refused credential: `description(includingBody:)` showed it.
    @Test(arguments: TestTransport.all)
    func anErrorsBodyDoesNotShowTheCredentialTheServerRepeats(_ transport: TestTransport) async throws {
        let router = transport.router(plugins: [AccessTokenPlugin(token: { "tok-SECRET-refused" })])
        do {
            _ = try await router.request(.fixture("echo-401"))
            Issue.record("expected a 401")
        } catch {
            #expect(error.response?.text.contains("tok-SECRET-refused") == true, "the server repeated the token")
            for shown in [error.description(includingBody: true), error.description(includingBody: true, redaction: router.redaction)] {
                #expect(!shown.contains("tok-SECRET-refused"), "\(shown)")
            }
        }
    }

    // MARK: Finding 3: a decoding error quotes a credential the server echoes

    /// A value the server repeats from the request, decoded into an enum: the decoding error's
    /// sentence, which every string of the error and of an APIError made from it show, quoted
    /// the bearer token. (The logger sees a 200: `request(_:as:)` decodes after delivery.)
    @Test(arguments: TestTransport.all)
    func aDecodingErrorDoesNotQuoteACredentialTheServerEchoes(_ transport: TestTransport) async throws {
        let lines = Lines()
        let router = transport.router(plugins: [
            AccessTokenPlugin(token: { "tok-SECRET-decoded" }),
            NetworkLoggerPlugin(sink: { lines.append($0) }),
        ])
        do {
            _ = try await router.request(.fixture("echo"), as: EchoedRequest.self)
            Issue.record("expected a decoding failure")
        } catch {
            guard case .decoding = error else {
                Issue.record("expected .decoding, got \(error)")
                return
            }
            #expect(error.response?.text.contains("tok-SECRET-decoded") == true, "the server echoed the token")
            let strings = [
                "\(error)", String(reflecting: error), error.localizedDescription, APIError(error).localizedDescription,
            ]
            for string in strings + lines.all {
                #expect(!string.contains("tok-SECRET-decoded"), "\(string)")
            }
        }
    }

    // MARK: Finding 4: a query secret the server repeats as it was sent

    /// The server's message repeats the request target as received, percent-encoded: an API key
    /// with `+`, `/` or `=` (Base64) was hidden only in its decoded form, which the message
    /// does not hold.
    @Test(arguments: TestTransport.all)
    func aServerMessageDoesNotShowAQuerySecretItRepeatsPercentEncoded(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("echo-401")
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["api_key": "k3y+SECRET/b64=="])
        let message = ErrorMessage { data in (try? JSONSerialization.jsonObject(with: data) as? [String: String])?["message"] }
        do {
            _ = try await transport.router().request(endpoint)
            Issue.record("expected a 401")
        } catch {
            let apiError = APIError(error, errorMessage: message)
            let shown = [apiError.localizedDescription, apiError.httpFailure.map { "\($0)" } ?? ""]
            #expect(apiError.httpFailure?.serverMessage?.contains("SECRET") == true, "the server repeated the key")
            for string in shown {
                #expect(!string.contains("SECRET"), "\(string)")
            }
        }
    }

    // MARK: Finding 5: a Location whose scheme is in capitals

    /// RFC 3986 §3.1: schemes are case-insensitive, and Redirection checks `HTTP` as `http`;
    /// CurlTransport followed `HTTP://…`, and URLSessionTransport failed with unsupportedURL.
    @Test(arguments: TestTransport.all)
    func aLocationWithTheSchemeInCapitalsIsFollowedOnEveryTransport(_ transport: TestTransport) async throws {
        let fixture = try #require(TestServers.fixture)
        let port = try #require(fixture.port)
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "HTTP://127.0.0.1:\(port)/echo"])
        let response = try await transport.router().request(endpoint)
        #expect(try jsonObject(response.data)["target"] as? String == "/echo")
    }

    // MARK: Found from outside 2026-11-27 (helper-30)

    /// A server that repeats a login form (an OAuth token endpoint echoing its `client_secret`
    /// in an error, a debugging echo): the request's log line hid the password, the response's
    /// showed it, as did the error's description.
    @Test(arguments: TestTransport.all, ["form", "json"])
    func aSecretOfTheRequestBodyIsHiddenWhereTheServerRepeatsIt(_ transport: TestTransport, body: String) async throws {
        let task: HTTPTask =
            body == "form"
            ? .requestParameters(bodyParameters: ["user": "ann", "password": "hunter22-BODY"], bodyEncoding: .urlForm, urlParameters: nil)
            : .requestParameters(bodyParameters: ["login": ["user": "ann", "password": "hunter22-BODY"]], bodyEncoding: .json, urlParameters: nil)
        let lines = Lines()
        let router = transport.router(plugins: [NetworkLoggerPlugin(options: [.bodies], sink: { lines.append($0) })])
        var endpoint = TestEndpoint.fixture("echo-401", .post)
        endpoint.task = task
        do {
            _ = try await router.request(endpoint)
            Issue.record("expected a 401")
        } catch {
            var echo = TestEndpoint.fixture("echo", .post)
            echo.task = task
            let echoed = try await router.request(echo)
            #expect(echoed.text.contains("hunter22-BODY"), "the server repeated the password: the test ran nothing")
            for string in lines.all + [error.description(includingBody: true), error.description(includingBody: true, redaction: router.redaction)] {
                #expect(!string.contains("hunter22-BODY"), "\(string)")
            }
        }
    }

    /// A URL's `user:password@` goes out as a Basic credential, which a server may repeat: the
    /// password, and the Base64 it is sent as, are hidden like the request's own headers.
    @Test func theBasicCredentialOfAURLsPasswordIsHiddenWhereTheServerRepeatsIt() throws {
        let url = try #require(URL(string: "http://alice:hunter22-URL@127.0.0.1/echo-401"))
        let sent = Data("alice:hunter22-URL".utf8).base64EncodedString()
        let message = "the credential Basic \(sent) was refused for alice:hunter22-URL"
        let shown = Redaction.default.hidingSecrets(of: URLRequest(url: url), in: message)
        #expect(!shown.contains(sent) && !shown.contains("hunter22-URL"), "\(shown)")
    }

    /// A stream's line that does not decode: the decoder quotes the value it could not take,
    /// where a server may repeat the request's token (helper-30's finding 7, 2026-11-27). The
    /// error keeps its line number and its kind; only the secret goes.
    @Test(arguments: TestTransport.all)
    func aStreamsDecodingErrorDoesNotQuoteTheRequestsToken(_ transport: TestTransport) async throws {
        let router = transport.router()
        let stream = router.stream(.fixture("echo?token=S3CR3T-LINE"))
        do {
            for try await _ in stream.decodeLines(EchoedTarget.self) {}
            Issue.record("the echoed target was read as a closed set of values")
        } catch {
            guard let error = error as? NetworkError, case .stream(.decoding(let line, let decoding)) = error else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(line == 1)
            #expect(decoding is DecodingError)
            let head = try await stream.response()
            #expect(head.request.url?.query?.contains("S3CR3T-LINE") == true, "the token was not sent: the test ran nothing")
            for string in [error.description, String(reflecting: error), "\(decoding)", error.localizedDescription] {
                #expect(!string.contains("S3CR3T-LINE"), "\(string)")
            }
        }
    }

    /// The same stream passed on as any `AsyncSequence` (a generic function of the caller's),
    /// and a type whose own `init(from:)` throws an error quoting what it read (helper-31,
    /// 2026-11-27): the secret is hidden in both.
    @Test(arguments: TestTransport.all)
    func aStreamReadGenericallyOrByItsOwnErrorsHidesTheToken(_ transport: TestTransport) async throws {
        func firstError<Lines: AsyncSequence>(decoding lines: Lines, as type: (some Decodable).Type) async -> (any Error)?
        where Lines.Element == Data {
            do {
                for try await _ in lines.decodeLines(type) {}
                return nil
            } catch {
                return error
            }
        }
        let router = transport.router()
        for error in [
            await firstError(decoding: router.stream(.fixture("echo?token=S3CR3T-LINE")), as: EchoedTarget.self),
            await firstError(decoding: router.stream(.fixture("echo?token=S3CR3T-LINE")), as: TargetCheckedByHand.self),
        ] {
            let error = try #require(error as? NetworkError, "every line decoded: the test ran nothing")
            guard case .stream(.decoding(line: 1, _)) = error else {
                Issue.record("expected a decoding error of line 1, got \(error)")
                continue
            }
            for string in [error.description, String(reflecting: error)] {
                #expect(!string.contains("S3CR3T-LINE"), "\(string)")
            }
        }
    }

    /// A key of the coding path that holds a secret is shown hidden; the others stay the
    /// caller's own keys, so that a `switch` on them still works.
    @Test func aDecodingErrorsPathHidesOnlyTheKeysThatHoldASecret() throws {
        let body = Data(#"{"items": {"tok-SECRET-KEY": "not a number"}}"#.utf8)
        do {
            _ = try JSONDecoder().decode([String: [String: Int]].self, from: body)
            Issue.record("a string was decoded as a number")
        } catch let error as DecodingError {
            let shown = error.hidingSecrets { $0.replacingOccurrences(of: "tok-SECRET-KEY", with: "<redacted>") }
            guard case .typeMismatch(_, let context) = shown else {
                Issue.record("the kind of error changed: \(shown)")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["items", "<redacted>"])
            #expect(!"\(shown)".contains("tok-SECRET-KEY"), "\(shown)")
        }
    }

    /// The `Cookie` the transport takes from its storage is sent without the router seeing it,
    /// and a server may repeat it: it is hidden like the request's own headers, in the
    /// logger's lines and in errors (helper-30's finding 5, 2026-11-27).
    @Test(arguments: TestTransport.all)
    func aCookieTheTransportAddsIsHiddenWhereTheServerRepeatsIt(_ transport: TestTransport) async throws {
        let (http, storage) = try #require(transport.makeWithCookies())
        let echo = try #require(TestServers.fixture?.appendingPathComponent("echo"))
        let stored = try #require(
            HTTPCookie(properties: [.domain: echo.host ?? "", .path: "/", .name: "sid", .value: "COOKIE-SECRET-77"]))
        storage.setCookie(stored)
        let lines = Lines()
        let router = Router<TestEndpoint>(
            transport: http, callbackQueue: DispatchQueue(label: "tests"),
            plugins: [NetworkLoggerPlugin(options: [.headers, .bodies], sink: { lines.append($0) })])

        let echoed = try await router.request(.fixture("echo"))
        #expect(echoed.text.contains("COOKIE-SECRET-77"), "the cookie was not sent: the test ran nothing")
        #expect(!lines.all.joined(separator: "\n").contains("COOKIE-SECRET-77"), "\(lines.all)")

        do {
            _ = try await router.request(.fixture("echo"), as: EchoedCookie.self)
            Issue.record("the echoed cookie was read as a closed set of values")
        } catch {
            for string in [error.description, String(reflecting: error), error.description(includingBody: true)] {
                #expect(!string.contains("COOKIE-SECRET-77"), "\(string)")
            }
        }
    }
}

/// A session of the caller's with a delegate cannot promise what it adds (`headersAdded(to:)`
/// is `nil`), yet sends its storage's cookie, over a request's own `Cookie` too: that cookie
/// is hidden where the server repeats it (helper-31, 2026-11-27).
@Suite("Secrets a caller's session adds", .needsFixtureServer)
struct CallersSessionSecretsTests {
    private final class Watching: NSObject, URLSessionTaskDelegate, @unchecked Sendable {}

    @Test(arguments: [nil, "consent=1"])
    func itsCookieIsHiddenWhereTheServerRepeatsIt(ownCookie: String?) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try #require(configuration.httpCookieStorage)
        let echo = try #require(TestServers.fixture?.appendingPathComponent("echo"))
        storage.setCookie(
            try #require(HTTPCookie(properties: [.domain: echo.host ?? "", .path: "/", .name: "sid", .value: "COOKIE-SECRET-88"])))
        let session = URLSession(configuration: configuration, delegate: Watching(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let transport = URLSessionTransport(session: session)
        #expect(transport.headersAdded(to: URLRequest(url: echo)) == nil, "the session promises what it adds: nothing new is tested")
        let lines = Lines()
        let router = Router<TestEndpoint>(
            transport: transport, callbackQueue: DispatchQueue(label: "tests"),
            plugins: [NetworkLoggerPlugin(options: [.headers, .bodies], sink: { lines.append($0) })])
        var endpoint = TestEndpoint.fixture("echo")
        endpoint.headers = ownCookie.map { ["Cookie": $0] }

        let echoed = try await router.request(endpoint)
        #expect(echoed.text.contains("COOKIE-SECRET-88"), "the session sent no cookie: the test ran nothing")
        #expect(!lines.all.joined(separator: "\n").contains("COOKIE-SECRET-88"), "\(lines.all)")
    }
}

private enum CookieKind: String, Decodable { case none }
private struct EchoedCookieHeader: Decodable { let cookie: CookieKind }
/// The fixture's `/echo`, with the `Cookie` it received read as a closed set of values.
private struct EchoedCookie: Decodable { let headers: EchoedCookieHeader }

private enum TargetKind: String, Decodable { case none }
/// The fixture's `/echo`, whose target a type of the caller's checks itself, throwing an error
/// that quotes it.
private struct TargetCheckedByHand: Decodable {
    struct Unexpected: Error, CustomStringConvertible {
        let target: String
        var description: String { "unexpected target \(target)" }
    }

    enum CodingKeys: String, CodingKey { case target }

    init(from decoder: any Decoder) throws {
        let target = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .target)
        throw Unexpected(target: target)
    }
}
/// The fixture's `/echo`, with the target it received read as a closed set of values.
private struct EchoedTarget: Decodable { let target: TargetKind }

private enum AuthorizationKind: String, Decodable { case none }
private struct EchoedHeaders: Decodable { let authorization: AuthorizationKind }
/// The fixture's `/echo`, with the `Authorization` it received read as a closed set of values.
private struct EchoedRequest: Decodable { let headers: EchoedHeaders }

private final class Lines: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}
