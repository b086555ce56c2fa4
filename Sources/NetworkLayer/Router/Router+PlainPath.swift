import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A plain chain's path (Router.swift's `send`): no plugin, retry, cache or sharing, and a body in
// memory, so the request needs no task.
extension Router {
    /// The plain chain without a task: the transport's callback validates, follows a redirect
    /// (through ``send(_:)`` again) and finishes, with the stages' own rules.
    func sendDirectly(_ exchange: Exchange, through transport: any CallbackTransport) {
        let redirects = self.redirects
        // The router is kept until its requests finish, as on the chain's path.
        exchange.metrics.didSend(bodyBytes: Int64(exchange.request.httpBody?.count ?? 0))
        let stop = transport.start(exchange.request) { [self] result in
            do {
                let (data, httpResponse) = try result.mapError { TransportStage.failure($0, redaction: exchange.context.redaction) }.get()
                exchange.metrics.didReceiveFirstByte()
                exchange.metrics.didReceive(bodyBytes: Int64(data.count))
                let response = Response(request: exchange.request, httpResponse: httpResponse, data: data)
                if let redirected = try RedirectStage.follow(response, from: exchange, policy: redirects) {
                    send(redirected)
                    return
                }
                exchange.handle.finish(.success(try ValidationStage.validate(response, acceptable: exchange.acceptableStatusCodes)))
            } catch let error as NetworkError {
                exchange.handle.finish(.failure(error))
            } catch {
                exchange.handle.finish(.failure(NetworkError(error, redaction: exchange.context.redaction)))
            }
        }
        exchange.handle.attach(stop)
    }
}
