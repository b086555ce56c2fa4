// Code of the DocC article "Streaming"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start streaming-api
enum LiveApi: EndPointType {
    case scores
    case orders(since: Int)
    case completion(prompt: String)

    var baseURL: URL { URL(string: "https://live.example.com")! }

    var path: String {
        switch self {
        case .scores: return "scores"
        case .orders: return "orders.ndjson"
        case .completion: return "v1/complete"
        }
    }

    var httpMethod: HTTPMethod {
        switch self {
        case .completion: return .post
        default: return .get
        }
    }

    var task: HTTPTask {
        switch self {
        case .scores:
            return .request
        case .orders(let since):
            return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["since": since])
        case .completion(let prompt):
            return .requestParameters(bodyParameters: ["prompt": prompt, "stream": true], bodyEncoding: .json, urlParameters: nil)
        }
    }

    var headers: HTTPHeaders? { ["Accept": "text/event-stream, application/x-ndjson"] }
}
// snippet.end

struct Order: Decodable, Sendable {
    let id: Int
    let total: Double
}

func show(_ order: Order) {}
func append(_ text: String) {}

enum StreamingSnippets {
    static func events(router: Router<LiveApi>) async throws {
        // snippet.start streaming-events
        for try await event in router.events(.scores) {
            switch event.type {
            case "goal": print("goal:", event.data)
            default: print(event.type, event.data)
            }
        }
        // snippet.end
    }

    static func lines(router: Router<LiveApi>) async throws {
        // snippet.start streaming-ndjson
        let stream = router.stream(.orders(since: 0))
        let head = try await stream.response()  // before the first line
        print(head.statusCode, head.header("Content-Type") ?? "")
        for try await order in stream.decodeLines(Order.self) {
            show(order)
        }
        // snippet.end
    }

    static func tokens(router: Router<LiveApi>) async throws {
        // snippet.start streaming-tokens
        for try await event in router.stream(.completion(prompt: "Hello"), options: StreamOptions(idleTimeout: 30)).events {
            if event.data == "[DONE]" { break }  // leaving the loop stops the transfer
            append(event.data)
        }
        // snippet.end
    }

    static func errors(router: Router<LiveApi>) async {
        // snippet.start streaming-errors
        do {
            for try await line in router.stream(.scores).lines { print(line) }
        } catch NetworkError.unacceptableStatusCode(let response) {
            print(response.statusCode, response.text)  // the error body, up to 1 MiB
        } catch NetworkError.timedOut(let seconds) {
            print("nothing for \(seconds) s")
        } catch {
            print(error)
        }
        // snippet.end
    }

    static func reconnection(router: Router<LiveApi>) {
        // snippet.start streaming-reconnection
        let events = router.events(
            .scores,
            options: StreamOptions(idleTimeout: 45),
            reconnection: ReconnectionPolicy(delay: 5, maximumAttempts: 20, maximumDelay: 120))
        // snippet.end
        _ = events
    }

    static func chatCompletion(router: Router<LiveApi>) async throws -> String {
        // snippet.start streaming-chat-completion
        struct Delta: Decodable {
            let text: String
        }

        var answer = ""
        do {
            for try await event in router.events(.completion(prompt: "Hello"), options: StreamOptions(idleTimeout: 30)) {
                if event.data == "[DONE]" { break }  // the answer is complete; leaving the loop closes the connection
                answer += try JSONDecoder().decode(Delta.self, from: Data(event.data.utf8)).text
            }
        } catch NetworkError.unacceptableStatusCode(let response) {
            print(response.statusCode, response.text)  // 401, 429 …: the API's JSON error
        } catch NetworkError.stream(.notAnEventStream(let response)) {
            print("not a stream:", response.header("Content-Type") ?? "none", response.text)
        }
        // snippet.end
        return answer
    }

    static func completion(router: Router<LiveApi>) {
        // snippet.start streaming-completion
        let handle = router.stream(.scores) { chunk in
            print(chunk.count, "bytes")
        } completion: { result in
            if case .failure(let error) = result { print(error.localizedDescription) }
        }
        handle.cancel()
        // snippet.end
    }

    static func stubbed() async throws {
        // snippet.start streaming-stub
        let sample = StubResponse(
            headers: ["Content-Type": "text/event-stream"],
            chunks: [Data("event: goal\ndata: 1-".utf8), Data("0\n\n".utf8)])
        let router = Router<LiveApi>(transport: StubTransport(sample))
        var received: [ServerSentEvent] = []
        for try await event in router.stream(.scores).events { received.append(event) }
        // received == [ServerSentEvent(type: "goal", data: "1-0")]
        // snippet.end
    }
}
