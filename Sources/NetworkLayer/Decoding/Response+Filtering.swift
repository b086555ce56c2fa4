/// Moya's status filters, for a response whose status the endpoint accepted but one caller
/// wants narrower (say a `304` through ``EndPointType/acceptableStatusCodes``, but this call
/// needs the body of a `200`).
///
/// ```swift
/// let movie = try await router.request(.details(id: 550))
///     .filter(statusCode: 200)
///     .map(Movie.self)
/// ```
///
/// Each throws ``NetworkError/unacceptableStatusCode(_:)`` with this response, the same error
/// as the router's own validation, so one `catch` handles both.
extension Response {
    /// This response, when its status is in `statusCodes`.
    ///
    /// - Throws: ``NetworkError/unacceptableStatusCode(_:)`` with this response otherwise.
    public func filter<R: RangeExpression>(statusCodes: R) throws(NetworkError) -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw .unacceptableStatusCode(self) }
        return self
    }

    /// This response, when its status is in `statusCodes`.
    ///
    /// - Throws: ``NetworkError/unacceptableStatusCode(_:)`` with this response otherwise.
    public func filter(statusCodes: Set<Int>) throws(NetworkError) -> Response {
        guard statusCodes.contains(statusCode) else { throw .unacceptableStatusCode(self) }
        return self
    }

    /// This response, when its status is `statusCode`.
    ///
    /// - Throws: ``NetworkError/unacceptableStatusCode(_:)`` with this response otherwise.
    public func filter(statusCode: Int) throws(NetworkError) -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// This response, when its status is 200 to 299.
    ///
    /// - Throws: ``NetworkError/unacceptableStatusCode(_:)`` with this response otherwise.
    public func filterSuccessfulStatusCodes() throws(NetworkError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// This response, when its status is 200 to 399: a success, or a redirect the router was
    /// told not to follow (``RedirectPolicy/doNotFollow``) and the endpoint accepts.
    ///
    /// - Throws: ``NetworkError/unacceptableStatusCode(_:)`` with this response otherwise.
    public func filterSuccessfulStatusAndRedirectCodes() throws(NetworkError) -> Response {
        try filter(statusCodes: 200...399)
    }
}
