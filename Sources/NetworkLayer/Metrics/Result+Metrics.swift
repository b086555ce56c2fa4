extension Result where Success == Response, Failure == NetworkError {
    /// The outcome with `metrics` on its response: the success's, or the one an unacceptable
    /// status or a decoding failure keeps.
    func attaching(_ metrics: RequestMetrics.Shared?) -> Self {
        switch self {
        case .success(var response):
            response.sharedMetrics = metrics
            return .success(response)
        case .failure(.unacceptableStatusCode(var response)):
            response.sharedMetrics = metrics
            return .failure(.unacceptableStatusCode(response))
        case .failure(.decoding(let error, var response)):
            response.sharedMetrics = metrics
            return .failure(.decoding(error, response))
        case .failure:
            return self
        }
    }
}
