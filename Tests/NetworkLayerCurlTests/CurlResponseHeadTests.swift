import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

import NetworkLayer
@testable import NetworkLayerCurl

/// The head parser on its own, with lines as libcurl's header callback hands them over.
@Suite("Curl response head")
struct CurlResponseHeadTests {
    private let url = URL(string: "http://127.0.0.1/x")!

    /// Feeds `lines` (CR LF added) and returns the last outcome.
    private func parse(_ lines: [String]) -> CurlResponseHead.Outcome? {
        var head = CurlResponseHead()
        var outcome: CurlResponseHead.Outcome?
        for line in lines {
            let bytes = Array(line.utf8) + [13, 10]
            outcome = bytes.withUnsafeBytes { head.consume($0, url: url) }
            if case .failed = outcome { return outcome }
        }
        return outcome
    }

    private func response(_ lines: [String]) -> HTTPURLResponse? {
        guard case .complete(let head) = parse(lines) else { return nil }
        return head.httpResponse
    }

    @Test func theFinalHeadAfterInterimOnesIsTheResponse() throws {
        let head = try #require(response(["HTTP/1.1 100 Continue", "", "HTTP/1.1 201 Created", "Location: /a", ""]))
        #expect(head.statusCode == 201)
        #expect(head.value(forHTTPHeaderField: "location") == "/a")
    }

    /// Joined with ", " as other repeated fields are, an `Expires` date's comma would look like
    /// the start of another cookie.
    @Test func setCookieValuesAreKeptApartFromTheFinalHeadOnly() throws {
        var head = CurlResponseHead()
        let lines = [
            "HTTP/1.1 103 Early Hints", "Set-Cookie: interim=1", "",
            "HTTP/1.1 302 Found", "Set-Cookie: a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "set-cookie: b=2", "",
        ]
        for line in lines {
            let bytes = Array(line.utf8) + [13, 10]
            _ = bytes.withUnsafeBytes { head.consume($0, url: url) }
        }
        #expect(head.isComplete)
        #expect(head.setCookieValues == ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "b=2"])
    }

    /// libcurl hands a line that starts with "HTTP/" but has a colon on as a header: it is not
    /// a new head, whose status would replace the real one and drop the fields before it.
    @Test func aHeaderLineThatLooksLikeAStatusLineIsAField() throws {
        let head = try #require(response(["HTTP/1.1 401 Unauthorized", "WWW-Authenticate: Bearer", "HTTP/1.1 200 OK: x", "X-After: 2", ""]))
        #expect(head.statusCode == 401)
        #expect(head.value(forHTTPHeaderField: "WWW-Authenticate") == "Bearer")
        #expect(head.value(forHTTPHeaderField: "X-After") == "2")
    }

    @Test func valuesAreTrimmedOfSpacesAndTabs() throws {
        let head = try #require(response(["HTTP/1.1 200 OK", "X-Padded: \t value \t", ""]))
        #expect(head.value(forHTTPHeaderField: "X-Padded") == "value")
    }

    @Test func aFoldedLineContinuesThePreviousValue() throws {
        let head = try #require(response(["HTTP/1.1 200 OK", "X-Long: first", "  second", ""]))
        #expect(head.value(forHTTPHeaderField: "X-Long") == "first second")
    }

    @Test func aValueThatIsNotUTF8IsReadAsLatin1() throws {
        var head = CurlResponseHead()
        _ = Array("HTTP/1.1 200 OK\r\n".utf8).withUnsafeBytes { head.consume($0, url: url) }
        _ = (Array("X-Name: caf".utf8) + [0xE9, 13, 10]).withUnsafeBytes { head.consume($0, url: url) }
        let outcome = Array("\r\n".utf8).withUnsafeBytes { head.consume($0, url: url) }
        guard case .complete(let response) = outcome else {
            Issue.record("no response")
            return
        }
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Name") == "café")
    }

    /// The status lines libcurl hands over: with a reason phrase, without one (HTTP/2 has none),
    /// with the trailing space libcurl writes after an HTTP/2 status, and with two spaces after
    /// the version, which libcurl accepts.
    @Test(arguments: [("HTTP/1.1 404 Not Found", 404), ("HTTP/1.0 200", 200), ("HTTP/2 204 ", 204), ("HTTP/1.1  201 Created", 201)])
    func aStatusLineGivesItsCode(_ line: String, _ code: Int) throws {
        let head = try #require(response([line, ""]))
        #expect(head.statusCode == code)
    }

    /// Repeated fields in any spelling are joined under the first one, in order; the others keep theirs.
    @Test func repeatedFieldsAreJoinedUnderTheFirstSpelling() throws {
        let head = try #require(response(["HTTP/1.1 200 OK", "Vary: Accept", "X-One: 1", "vary: Cookie", "VARY: Origin", ""]))
        #expect(head.value(forHTTPHeaderField: "Vary") == "Accept, Cookie, Origin")
        #expect(head.value(forHTTPHeaderField: "X-One") == "1")
        #expect(head.allHeaderFields.count == 2)
    }

    /// The router reads the joined fields from the head itself, before any `HTTPURLResponse` exists.
    @Test func theHeadAnswersTheJoinedFieldsWithoutAResponse() throws {
        guard case .complete(let head) = parse(["HTTP/1.1 200 OK", "Vary: Accept", "vary: Cookie", "Location: /next", ""]) else {
            Issue.record("no head")
            return
        }
        #expect(head.value(named: "VARY") == "Accept, Cookie")
        #expect(head.value(named: "location") == "/next")
        #expect(!head.isMade)
    }

    @Test(arguments: ["HTTP/1.1 20 OK", "HTTP/1.1 abc OK", "HTTP/1.1", "HTTP/1.1 2000 OK", "HTTP/1.1 200OK", "HTTP/1.1 -20 OK"])
    func aMalformedStatusLineFails(_ line: String) {
        guard case .failed = parse([line, ""]) else {
            Issue.record("accepted \(line)")
            return
        }
    }

    @Test func aLineWithoutAColonFails() {
        guard case .failed = parse(["HTTP/1.1 200 OK", "no colon here", ""]) else {
            Issue.record("accepted a line without a colon")
            return
        }
    }

    @Test func aHeadLargerThanTheLimitFails() {
        let line = "X-Big: " + String(repeating: "a", count: 1_000)
        let lines = ["HTTP/1.1 200 OK"] + Array(repeating: line, count: 300) + [""]
        guard case .failed(let message) = parse(lines) else {
            Issue.record("accepted a head over the limit")
            return
        }
        #expect(message.contains("larger than"))
    }

    @Test func repeatedContentLengthsWithTheSameValueAreAccepted() {
        #expect(BodyFraming.problem(contentLength: "42, 42", transferEncoding: nil) == nil)
        #expect(BodyFraming.problem(contentLength: "42,43", transferEncoding: nil) != nil)
        #expect(BodyFraming.problem(contentLength: "", transferEncoding: nil) != nil)
        #expect(BodyFraming.problem(contentLength: "5", transferEncoding: "chunked") != nil)
    }
}
