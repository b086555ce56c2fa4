import Foundation

/// The task shapes of the tutorial this package grew from ("Writing a Network Layer in Swift:
/// Protocol-Oriented Approach"), with its labels and its encodings: body parameters as JSON,
/// URL parameters in the query.
///
/// An endpoint written for the tutorial compiles unchanged:
///
/// ```swift
/// var task: HTTPTask {
///     switch self {
///     case .newMovies(let page):
///         return .requestParameters(bodyParameters: nil, urlParameters: ["page": page, "api_key": key])
///     default:
///         return .request
///     }
/// }
/// ```
///
/// Each builds the case that names its body encoding, with ``BodyEncoding/json``.
extension HTTPTask {
    /// Body parameters as a JSON object, URL parameters in the query: the tutorial's
    /// `requestParameters`. The same as
    /// ``requestParameters(bodyParameters:bodyEncoding:urlParameters:)`` with
    /// ``BodyEncoding/json``.
    public static func requestParameters(bodyParameters: Parameters?, urlParameters: Parameters?) -> HTTPTask {
        .requestParameters(bodyParameters: bodyParameters, bodyEncoding: .json, urlParameters: urlParameters)
    }

    /// As ``requestParameters(bodyParameters:urlParameters:)``, plus headers merged over the
    /// endpoint's: the tutorial's `requestParametersAndHeaders`, with its `additionHeaders` label.
    /// The same as
    /// ``requestParametersAndHeaders(bodyParameters:bodyEncoding:urlParameters:additionalHeaders:)``
    /// with ``BodyEncoding/json``.
    public static func requestParametersAndHeaders(
        bodyParameters: Parameters?, urlParameters: Parameters?, additionHeaders: HTTPHeaders?
    ) -> HTTPTask {
        .requestParametersAndHeaders(
            bodyParameters: bodyParameters, bodyEncoding: .json, urlParameters: urlParameters,
            additionalHeaders: additionHeaders)
    }
}
