// Code of the DocC article "Choosing a transport" (NetworkLayerCurl.docc), compiled here so
// that the article cannot drift from the API; Scripts/check-doc-snippets checks every block.
import Foundation
import NetworkLayer
import NetworkLayerCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum ChoosingATransportSnippets {
    struct MovieApi: EndPointType {
        var baseURL: URL { URL(fileURLWithPath: "/") }
        var path: String { "" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
    }

    static func adopt() {
        // snippet.start curl-router
        let router = Router<MovieApi>(transport: CurlTransport())
        // snippet.end
        _ = router
    }

    static func keepCookies() {
        // snippet.start curl-cookies
        var configuration = CurlTransport.Configuration()
        configuration.cookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        let transport = CurlTransport(configuration: configuration)
        // snippet.end
        _ = transport
    }

    static func configure() {
        // snippet.start curl-configuration
        var configuration = CurlTransport.Configuration()
        configuration.timeout = 30  // the whole transfer; none by default
        configuration.certificateAuthority = .file(URL(fileURLWithPath: "/etc/myapp/ca.pem"))
        configuration.pinnedPublicKeys = [
            "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=",
            "sha256//Vjs8r4z+80wjNcr1YKepWQboSIRi63WsWXhIMN+eWys=",  // the next key, before rotation
        ]
        let router = Router<MovieApi>(transport: CurlTransport(configuration: configuration))
        // snippet.end
        _ = router
    }

    static func choose(useCurl: Bool) {
        // snippet.start curl-choose
        #if os(Linux)
        let transport: any HTTPTransport = CurlTransport()
        #else
        let transport: any HTTPTransport = URLSessionTransport()
        #endif
        let router = Router<MovieApi>(transport: transport)
        // snippet.end
        _ = router
    }

    static func shutDownBeforeExit() async {
        // snippet.start curl-shutdown
        let transport = CurlTransport()
        let router = Router<MovieApi>(transport: transport)
        // … requests …
        await transport.shutdown()
        // snippet.end
        _ = router
    }
}
