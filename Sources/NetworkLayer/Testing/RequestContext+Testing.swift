import Foundation

extension RequestContext {
    /// Creates the context a router would give a plugin's hooks, so that a plugin can be unit
    /// tested by calling them.
    ///
    /// ```swift
    /// let context = RequestContext(target: AccountApi.login(user: "ada", password: "…"))
    /// let prepared = try await AccessTokenPlugin(token: { "t" })
    ///     .prepare(URLRequest(url: URL(string: "https://api.example.com/login")!), context: context)
    /// #expect(prepared.value(forHTTPHeaderField: "Authorization") == nil)  // authorizationType nil
    /// ```
    ///
    /// - Parameters:
    ///   - target: The endpoint being requested.
    ///   - id: The request's id; 1 by default.
    ///   - attempt: How many times the request has been sent; 0 (before the first send) by default.
    ///   - startedAt: When the request started; now by default.
    ///   - redaction: What is secret; ``Redaction/default`` by default.
    public init(
        target: any EndPointType, id: UInt64 = 1, attempt: Int = 0, startedAt: Date = Date(), redaction: Redaction = .default
    ) {
        self.init(id: id, target: target, startedAt: startedAt, attempt: attempt, redaction: redaction)
    }
}
