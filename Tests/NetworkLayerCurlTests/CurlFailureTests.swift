import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Failures are `URLError`s with the codes Apple platforms use, at once, with a message that says
/// what went wrong and never a secret part of the URL.
@Suite("CurlTransport failures")
struct CurlFailureTests {
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func anEmptyReplyIsBadServerResponse(_ transport: TestTransport) async throws {
        let error = await urlError { try await transport.make().send(fixtureRequest("/close-before-response")) }
        #expect(error?.code == .badServerResponse)
    }

    @Test(arguments: TestTransport.all)
    func aRefusedConnectionIsCannotConnectToHost(_ transport: TestTransport) async throws {
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(try closedPort())/x")))
        let error = await urlError { try await transport.make().send(request) }
        #expect(error?.code == .cannotConnectToHost)
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all, ["/close-after-headers", "/close-mid-body", "/short-body"])
    func aBodyCutShortIsNetworkConnectionLost(_ transport: TestTransport, _ route: String) async throws {
        let error = await urlError { try await transport.make().send(fixtureRequest(route)) }
        #expect(error?.code == .networkConnectionLost)
    }

    /// libcurl calls an invalid status line an unsupported protocol and a 200 KiB header line
    /// "out of memory": both are the server's fault, named as such, over either transport.
    @Test(.needsFixtureServer, arguments: TestTransport.all, ["/invalid-status-line", "/huge-header?kib=200"])
    func aHeadLibcurlCannotReadIsBadServerResponse(_ transport: TestTransport, _ route: String) async throws {
        let error = await urlError { try await transport.make().send(fixtureRequest(route)) }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.hasPrefix("The server's response could not be read: ") == true, "\(String(describing: error))")
    }

    /// libcurl 7.88 reads the numeric prefix of these and returns a body cut to it as a success;
    /// both transports check the field themselves.
    @Test(.needsFixtureServer, arguments: TestTransport.all, ["5five", "1e3", "0x10", "+5", "5 5", "-1", "5,6"])
    func aContentLengthThatIsNotOnePlainNumberIsAnError(_ transport: TestTransport, _ value: String) async throws {
        let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let error = await urlError { try await transport.make().send(fixtureRequest("/content-length?value=\(query)&body=helloworld")) }
        #expect(error?.code == .badServerResponse)
    }

    @Test(.needsFixtureServer)
    func aMalformedContentLengthIsNamedInTheMessage() async throws {
        let error = await urlError { try await CurlTransport().send(fixtureRequest("/content-length?value=5five&body=helloworld")) }
        #expect(error?.localizedDescription.contains("Content-Length \"5five\"") == true)
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aBodyShorterThanItsContentLengthIsAnError(_ transport: TestTransport) async throws {
        let error = await urlError { try await transport.make().send(fixtureRequest("/content-length?value=20&body=hello")) }
        #expect(error?.code == .networkConnectionLost)
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aPlainContentLengthIsAccepted(_ transport: TestTransport) async throws {
        let (data, response) = try await transport.make().send(fixtureRequest("/content-length?value=10&body=helloworld"))
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "helloworld")
    }

    @Test func theErrorNamesTheURLWithoutCredentialsQueryOrFragment() async throws {
        let port = try closedPort()
        let url = try #require(URL(string: "http://user:pa55word@127.0.0.1:\(port)/v1/items?api_key=s3cr3t-key#frag"))
        let error = try #require(await urlError { try await CurlTransport().send(URLRequest(url: url)) })
        let everything = "\(error.userInfo) \(error.localizedDescription) \(error)"
        for secret in ["pa55word", "user", "s3cr3t-key", "api_key", "frag"] {
            #expect(!everything.contains(secret), "\(secret) in \(everything)")
        }
        #expect(error.failingURL?.absoluteString == "http://127.0.0.1:\(port)/v1/items")
        #expect(error.localizedDescription.contains("Could not connect to the server"))
    }

    /// libcurl lets `http/1.1 200 OK` through; the head's reader refused it as "a response header
    /// line has no colon", which sent the reader to the header lines (helper-36).
    @Test(.needsFixtureServer)
    func aStatusLineThatIsNotHTTPSaysSo() async throws {
        let error = await urlError { try await CurlTransport().send(fixtureRequest("/hostile?kind=lowercase-status-line")) }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.contains("status line is malformed") == true, "\(error?.localizedDescription ?? "no error")")
    }

    /// A `101` that no upgrade asked for is the response, as libcurl reads it (the rest of the
    /// connection is its body) and as FoundationNetworking answers it: the head's reader took it
    /// for an interim head, and the body that followed failed as "a body without a response
    /// head" (helper-36).
    @Test(.needsFixtureServer)
    func aSwitchingProtocolsNobodyAskedForIsTheResponse() async throws {
        let (data, response) = try await CurlTransport().send(fixtureRequest("/hostile?kind=unasked-switching-protocols"))
        #expect(response.statusCode == 101)
        #expect(response.value(forHTTPHeaderField: "Upgrade") == "websocket")
        #expect(data == Data("xxxx".utf8))
    }

    /// A chunk size that is not hexadecimal is a body the server wrote wrong: libcurl reports it
    /// with the code of a lost connection, and the error said "The connection was lost."
    /// (helper-36).
    @Test(.needsFixtureServer)
    func aMalformedChunkedBodyIsTheServersFault() async throws {
        let error = await urlError { try await CurlTransport().send(fixtureRequest("/hostile?kind=bad-chunk-size")) }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.contains("chunked body is malformed") == true, "\(error?.localizedDescription ?? "no error")")
    }

    @Test func aURLThatIsNotHTTPIsUnsupported() async throws {
        let error = await urlError { try await CurlTransport().send(URLRequest(url: URL(fileURLWithPath: "/etc/hostname"))) }
        #expect(error?.code == .unsupportedURL)
    }

    @Test(.needsFixtureServer)
    func aMalformedPinIsRefusedWithItsReason() async throws {
        let transport = CurlTransport(configuration: .init(pinnedPublicKeys: ["sha1//abc"]))
        let error = await urlError { try await transport.send(fixtureRequest("/fast")) }
        #expect(error?.code == .secureConnectionFailed)
        #expect(error?.localizedDescription.contains("sha1//abc") == true)
    }
}
