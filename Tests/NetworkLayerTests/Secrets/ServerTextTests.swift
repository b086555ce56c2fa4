import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Text the server controls reaches the strings the package makes (error descriptions, the
/// logger's lines, `APIError`'s sentences) only as an excerpt: bounded, on one line, without
/// control, format or separator characters. Found from outside (2026-11-26): a decoding error
/// quoted a 200 KB key, with escape sequences and line breaks, whole; the logger passed a
/// body's CR LF (a forged summary line) and a header's ESC sequences; a right-to-left override
/// in a server's message reached `APIError`'s sentence.
@Suite("Server text in the strings we make")
struct ServerTextTests {
    private enum Kind: String, Decodable { case movie }
    private struct Media: Decodable { let kind: Kind }
    private struct Page: Decodable { let page: Int }

    private static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// The bodies, by name: a test argument of 200 KB would fill the test log.
    enum HostileBody: String, CaseIterable, Sendable {
        case escapesInAKey, escapesInAnEnumValue, aNumberOf100000Digits, aKeyOf200KB

        var body: String {
            switch self {
            case .escapesInAKey: #"{"\u001b]0;pwned\u0007\r\nFORGED LOG LINE":"x"}"#
            case .escapesInAnEnumValue: #"{"kind":"\u001b[2J\r\nBearer sk-live-SECRET \u202Eevil"}"#
            case .aNumberOf100000Digits: #"{"page":"# + String(repeating: "9", count: 100_000) + "}"
            case .aKeyOf200KB: #"{""# + String(repeating: "k", count: 200_000) + #"":"x"}"#
            }
        }
    }

    @Test(arguments: HostileBody.allCases)
    func aDecodingErrorShowsTheBodysTextOnlyAsAShortExcerpt(_ hostile: HostileBody) throws {
        let response = try Response(statusCode: 200, data: Data(hostile.body.utf8))
        let error: NetworkError
        do {
            switch hostile {
            case .escapesInAnEnumValue: _ = try response.decode(Media.self)
            case .aNumberOf100000Digits: _ = try response.decode(Page.self)
            case .escapesInAKey, .aKeyOf200KB: _ = try response.decode([String: Int].self)
            }
            Issue.record("decoded")
            return
        } catch let caught {
            error = caught
        }
        for text in [error.description, error.localizedDescription, error.debugDescription, APIError(error).localizedDescription] {
            #expect(Self.isClean(text), "\(text.prefix(200).debugDescription)")
            #expect(text.utf8.count < 1024, "\(text.utf8.count) bytes")
        }
    }

    @Test func theLoggersLinesCarryNoServerControlCharacters() throws {
        let lines = Locked([String]())
        let logger = NetworkLoggerPlugin(options: [.headers, .bodies]) { line in lines.withLock { $0.append(line) } }
        let body = "ok\r\n← [42] 200 GET https://bank.example/transfer (1 ms, 0 B sent, 2 B received)\n\u{1B}[2J\u{202E}"
        let response = try Response(
            statusCode: 200, data: Data(body.utf8), headers: ["Content-Type": "text/plain", "X-Evil": "a\u{1B}]0;title\u{07}b"])
        logger.didReceive(.success(response), context: RequestContext(target: TestEndpoint.fixture("x")))
        let logged = lines.withLock { $0 }.joined(separator: "\n")
        #expect(logged.components(separatedBy: "\n").filter { $0.hasPrefix("← [") }.count == 1, "\(logged.debugDescription)")
        #expect(!logged.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{07}" || $0 == "\u{202E}" })
        #expect(logged.contains("X-Evil: a ]0;title b"))
    }

    @Test func aServersMessageIsShownWithoutFormatCharacters() throws {
        let data = Data(#"{"status_code":7,"status_message":"\u202Eevil\u200B\u2028x"}"#.utf8)
        let error = NetworkError.unacceptableStatusCode(try Response(statusCode: 401, data: data))
        let text = APIError(error, errorMessage: .json(TMDBStyleError.self, \.statusMessage)).localizedDescription
        #expect(Self.isClean(text), "\(text.debugDescription)")
        #expect(text.contains("evil"))
    }

    @Test(arguments: ["", "   "])
    func anEmptyServerMessageLeavesTheStatusText(_ message: String) throws {
        let data = Data(#"{"status_code":34,"status_message":"\#(message)"}"#.utf8)
        let error = NetworkError.unacceptableStatusCode(try Response(statusCode: 404, data: data))
        guard case .notFound(let failure) = APIError(error, errorMessage: .json(TMDBStyleError.self, \.statusMessage)) else {
            Issue.record("not .notFound")
            return
        }
        #expect(failure.serverMessage == nil)
        #expect(failure.description == "404: \(HTTPURLResponse.localizedString(forStatusCode: 404))")
    }

    /// The `Content-Type` that `notAnEventStream` names went into its description as the server
    /// sent it, an ESC sequence included (found from outside 2026-11-27).
    @Test func theContentTypeANonEventStreamNamesCarriesNoControlCharacters() throws {
        let response = try Response(statusCode: 200, data: Data(), headers: ["Content-Type": "text/html\u{1b}[2J\u{7}"])
        let text = NetworkError.stream(.notAnEventStream(response)).localizedDescription
        #expect(Self.isClean(text), "\(text.debugDescription)")
        #expect(text.contains("text/html"))
    }
}
