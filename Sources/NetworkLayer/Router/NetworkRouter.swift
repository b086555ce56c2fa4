import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The completion of the tutorial this package grew from, with `URLSession`'s meaning: `error`
/// is set only when no HTTP response arrived (a transport failure, ``NetworkError/cancelled``,
/// ``NetworkError/timedOut(after:)``); any status, `404` and `500` included, comes as `data` and
/// `response` with a `nil` error.
///
/// ```swift
/// router.request(.newMovies(page: 1)) { data, response, error in
///     guard error == nil, let response = response as? HTTPURLResponse else { return }
///     print(response.statusCode, data?.count ?? 0)
/// }
/// ```
public typealias NetworkRouterCompletion = @Sendable (_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> Void

/// Something that sends the requests of one API's endpoints: ``Router`` is the implementation;
/// the protocol lets an app's services depend on an abstraction they can replace in tests.
///
/// It has the tutorial's shape (`request(_:completion:)` with a ``NetworkRouterCompletion``,
/// and `cancel()`), so code written against the tutorial's `NetworkRouter` keeps compiling, and
/// the `Result` form beside it.
public protocol NetworkRouter: AnyObject, Sendable {
    /// The API's endpoint type, usually an `enum`.
    associatedtype EndPoint: EndPointType

    /// Sends `route`; `completion` runs exactly once with the response or the error.
    ///
    /// - Returns: A handle that cancels this request only.
    @discardableResult
    func request(
        _ route: EndPoint, completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> any Cancellable

    /// Sends `route`; `completion` runs exactly once, with `URLSession`'s meaning (see
    /// ``NetworkRouterCompletion``). A default implementation calls the `Result` form.
    ///
    /// - Returns: A handle that cancels this request only.
    @discardableResult
    func request(_ route: EndPoint, completion: @escaping NetworkRouterCompletion) -> any Cancellable

    /// Cancels every request of this router that is still in flight.
    func cancel()
}

extension NetworkRouter {
    /// Sends `route` through the `Result` form and hands its outcome to `completion` as
    /// `URLSession` would: a response of any status as `data` and `response`, every other
    /// failure as `error` (a ``NetworkError``).
    @discardableResult
    public func request(_ route: EndPoint, completion: @escaping NetworkRouterCompletion) -> any Cancellable {
        request(route) { (result: Result<Response, NetworkError>) in
            switch result {
            case .success(let response):
                completion(response.data, response.httpResponse, nil)
            case .failure(let error):
                // A status the endpoint does not accept is still a response to URLSession.
                if let response = error.response {
                    completion(response.data, response.httpResponse, nil)
                } else {
                    completion(nil, nil, error)
                }
            }
        }
    }
}
