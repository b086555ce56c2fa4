import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redacting a body takes time in proportion to its length, whatever the server put in it.
///
/// Found from outside (2026-11-26): a body of `"` then `\"` repeated, which does not parse as
/// JSON, went through a regular expression that tried a match at every quote; 80 KB took 28 s
/// in `description(includingBody: true)` and in the logger's `.bodies`, and 1 MiB would have
/// taken over an hour. Closed by a quote, the same body made the expression give up early, and
/// a secret member after it was shown. The workload runs in a child process, so that a hang fails this test at
/// its deadline instead of holding the run.
@Suite("Body redaction time")
struct BodyRedactionTimeTests {
    @Test func bodiesOfEscapedQuotesAreRedactedWithoutHanging() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "escaped-quotes", filter: "BodyRedactionTimeTests/escapedQuotesWorkload", timeout: 120,
            proof: "QUOTES: done")
    }

    @Test(.childWorkload("escaped-quotes"))
    func escapedQuotesWorkload() throws {
        let url = try #require(URL(string: "https://example.invalid/x"))
        let head = try #require(HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:]))
        // Unclosed: every quote began a match that ran to the end, 28 s for these 80 KB.
        let unclosedBody = "\"" + String(repeating: "\\\"", count: 40_000)
        let unclosed = Response(request: URLRequest(url: url), httpResponse: head, data: Data(unclosedBody.utf8))
        #expect(NetworkError.unacceptableStatusCode(unclosed).description(includingBody: true).count > 100)
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(options: [.bodies], sink: { line in lines.withLock { $0.append(line) } })
        logger.didReceive(.success(unclosed), context: RequestContext(target: TestEndpoint.offline("x")))
        #expect(!lines.withLock { $0 }.isEmpty)
        // Closed, then a secret member: on a mebibyte, the expression gave up before it and showed it.
        let escapes = "\"" + String(repeating: "\\\"", count: 512 * 1024)
        let shown = Redaction.default.body(Data((escapes + "\", \"token\": \"SECRET\"").utf8), contentType: "text/plain")
        let hidden = !shown.contains("SECRET") && shown.hasSuffix("\"token\": \"<redacted>\"")
        #expect(hidden, "the token after the escaped quotes is shown: …\(shown.suffix(40))")
        print("QUOTES: done")
    }

    /// What the regular expression hid, the scan hides: members after a stray quote in prose
    /// (the quote that closes it may open the next name), around any Unicode white space (the
    /// expression's `\s`), and after a string that a backslash before a line break cuts short
    /// (the expression's escape took no line break). The last two groups were shown by the
    /// first version of the scan (found from outside, 2026-11-26).
    @Test(arguments: [
        "he is 5\" tall; {\"token\": \"SECRET\"}",
        "\"a\" \"b\" {\"password\":\"SECRET\"}",
        "{\"note\": \"say \\\"hi\\\"\", \"access_token\": \"SECRET\"}",
        "\"password\"\u{0B}: \"SECRET\"",
        "\"password\"\u{A0}: \"SECRET\"",
        "\"password\"\u{0C}:\"SECRET\"",
        "\"password\"\u{2028}:\"SECRET\"",
        "\"password\":\u{A0} \"SECRET\"",
        "{\"note\": \"ends\\\n\"password\": \"SECRET\"}",
        "{\"note\": \"C:\\\r\n\"token\": \"SECRET\"}",
    ])
    func secretMembersAreHiddenAsTheExpressionHidThem(text: String) {
        let shown = Redaction.default.body(Data(text.utf8), contentType: "text/plain")
        #expect(!shown.contains("SECRET"), "\(shown)")
        #expect(shown.contains("<redacted>"), "\(shown)")
    }
}
