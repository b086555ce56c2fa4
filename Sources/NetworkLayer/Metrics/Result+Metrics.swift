extension Result where Success == Response, Failure == NetworkError {
    /// The outcome with `metrics` on its response: the success's, or the one an unacceptable
    /// status or a decoding failure keeps.
    func attaching(_ metrics: RequestMetrics?) -> Self {
        switch self {
        case .success(var response):
            response.metrics = metrics
            return .success(response)
        case .failure(.unacceptableStatusCode(var response)):
            response.metrics = metrics
            return .failure(.unacceptableStatusCode(response))
        case .failure(.decoding(let error, var response)):
            response.metrics = metrics
            return .failure(.decoding(error, response))
        case .failure:
            return self
        }
    }
}
