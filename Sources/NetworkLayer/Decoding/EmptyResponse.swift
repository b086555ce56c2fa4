/// A result type for endpoints whose answer has no body worth decoding (`204 No Content`,
/// a `DELETE`): it decodes from an empty body, or from any JSON.
///
/// ```swift
/// _ = try await router.request(.deleteList(id: 7), as: EmptyResponse.self)
/// ```
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates the empty value.
    public init() {}

    /// Accepts any JSON value.
    public init(from decoder: any Decoder) throws {}
}
