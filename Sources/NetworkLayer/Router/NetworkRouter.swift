/// Something that sends the requests of one API's endpoints: ``Router`` is the implementation;
/// the protocol lets an app's services depend on an abstraction they can replace in tests.
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

    /// Cancels every request of this router that is still in flight.
    func cancel()
}
