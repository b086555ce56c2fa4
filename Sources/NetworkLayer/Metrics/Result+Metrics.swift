extension Result where Success == Response, Failure == NetworkError {
    /// The outcome with `delivery` on its response: the success's, or the one an unacceptable
    /// status, a decoding failure or a body that is not an event stream keeps.
    func attaching(_ delivery: Response.Delivery) -> Self {
        func attached(_ response: Response) -> Response {
            var response = response
            response.delivery = delivery
            return response
        }
        switch self {
        case .success(let response):
            return .success(attached(response))
        case .failure(.unacceptableStatusCode(let response)):
            return .failure(.unacceptableStatusCode(attached(response)))
        case .failure(.decoding(let error, let response)):
            return .failure(.decoding(error, attached(response)))
        case .failure(.stream(.notAnEventStream(let response))):
            return .failure(.stream(.notAnEventStream(attached(response))))
        case .failure:
            return self
        }
    }
}
