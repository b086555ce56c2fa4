import NetworkLayer

extension RetryPolicy {
    /// TMDB's rate limit rule: after a `429 Too Many Requests`, wait what `Retry-After` says (1 s
    /// when it says nothing), at most 10 s, and send again, at most twice. Nothing else is retried.
    ///
    /// TMDB limits bursts and says when to come back; honouring it turns a transient 429 into a
    /// short pause instead of an error, and the bounds keep a `Retry-After: 86400` from stalling
    /// the caller. A 429 means the request was not processed, so every method TMDB uses (`POST`
    /// and `DELETE` of a rating included) may be sent again, on 429 only: no other status and no
    /// transport error is retried, because either could follow a request the server carried out.
    /// The whole request, waits included, stays within ``MovieApi/timeout``.
    ///
    /// ```swift
    /// let service = MovieService(configuration: configuration, retryPolicy: .tmdbRateLimit)
    /// var quick = RetryPolicy.tmdbRateLimit
    /// quick.maximumDelay = 0.01            // tests: the same rule without the waits
    /// ```
    public static let tmdbRateLimit = RetryPolicy(
        retryLimit: 2,
        // A constant 1 s backoff, without jitter: the wait when `Retry-After` is absent, which
        // `Retry-After` replaces when present.
        backoffBase: 1,
        backoffScale: 1,
        jitter: 0,
        maximumDelay: 10,
        retryableMethods: [.get, .head, .post, .put, .delete],
        retryableStatusCodes: [429],
        retryableURLErrorCodes: [])
}
