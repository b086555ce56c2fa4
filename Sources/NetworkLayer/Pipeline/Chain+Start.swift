import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Where every request of a router leaves it (Router.swift's `start`): through the stages in a
// task, or, when the chain is plain, straight to the transport without one.
extension Chain {
    /// Sends `exchange` and finishes its handle with the outcome.
    ///
    /// A plain chain (no plugin, retry, cache or sharing) with the body in memory and a callback
    /// transport needs no task: the transport's callback validates, follows a redirect (through
    /// here again) and finishes, with the stages' own rules. Anything else runs the stages in a
    /// task started on the caller's thread (`Task.startingNow`).
    func start(_ exchange: Exchange) {
        guard isPlain, case .inRequest = exchange.payload, exchange.streamedBody == nil,
            let transport = exchange.callbackTransport
        else {
            let task = Task.startingNow { exchange.handle.finish(await run(exchange)) }
            exchange.handle.attach { task.cancel() }
            return
        }
        exchange.metrics.didSend(bodyBytes: Int64(exchange.request.httpBody?.count ?? 0))
        let stop = transport.start(exchange.request) { [self] result in
            do {
                let (data, head) = try result.mapError { TransportStage.failure($0, redaction: exchange.context.redaction) }.get()
                exchange.metrics.didReceiveFirstByte()
                exchange.metrics.didReceive(bodyBytes: Int64(data.count))
                let response = Response(request: exchange.request, head: head, data: data)
                if let redirected = try RedirectStage.follow(response, from: exchange, policy: redirects) {
                    start(redirected)
                    return
                }
                exchange.handle.finish(.success(try ValidationStage.validate(response, acceptable: exchange.acceptableStatusCodes)))
            } catch let error as NetworkError {
                exchange.handle.finish(.failure(error))
            } catch {
                exchange.handle.finish(.failure(NetworkError(error, redaction: exchange.context.redaction)))
            }
        }
        // The callback may have followed a redirect already, and attached that transfer's stop.
        exchange.handle.attach(stop, redirect: exchange.redirectCount)
    }
}
