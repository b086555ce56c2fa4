import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an endpoint sends besides its URL and headers: query parameters, a body, or both.
///
/// URL parameters always go to the query (with the endpoint's ``EndPointType/queryEncoder``);
/// body parameters go to the body with the chosen ``BodyEncoding``.
///
/// ```swift
/// var task: HTTPTask {
///     switch self {
///     case .popular(let page):
///         return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
///     case .rate(_, let value):
///         return .requestParameters(bodyParameters: ["value": value], bodyEncoding: .json, urlParameters: nil)
///     case .details:
///         return .request
///     }
/// }
/// ```
public enum HTTPTask: Sendable {
    /// No parameters and no body.
    case request

    /// Body parameters encoded with `bodyEncoding`, URL parameters encoded into the query.
    ///
    /// Either may be `nil`. Body parameters on a `GET` or `HEAD` request are an error.
    case requestParameters(bodyParameters: Parameters?, bodyEncoding: BodyEncoding, urlParameters: Parameters?)

    /// As ``requestParameters(bodyParameters:bodyEncoding:urlParameters:)``, plus headers that are
    /// merged over the endpoint's (names compared case-insensitively; these win).
    case requestParametersAndHeaders(
        bodyParameters: Parameters?, bodyEncoding: BodyEncoding, urlParameters: Parameters?,
        additionalHeaders: HTTPHeaders?)

    /// A body sent as it is. `contentType` is set as `Content-Type` unless a header gives one;
    /// `application/octet-stream` when both are `nil`.
    case requestData(Data, contentType: String?)

    /// Any `Encodable` value as a JSON body, encoded with `encoder` (a new `JSONEncoder` by
    /// default).
    ///
    /// ```swift
    /// case .createList(let list): return .requestJSONEncodable(list)
    /// ```
    case requestJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder = JSONEncoder())

    /// The file at the URL as the body, streamed from disk with upload progress.
    /// `contentType` is set as `Content-Type` unless a header gives one; `application/octet-stream`
    /// when both are `nil`.
    case uploadFile(URL, contentType: String? = nil, urlParameters: Parameters? = nil)

    /// `Data` as the body, sent with upload progress. `contentType` is set as `Content-Type`
    /// unless a header gives one; `application/octet-stream` when both are `nil`.
    case uploadData(Data, contentType: String? = nil, urlParameters: Parameters? = nil)

    /// A `multipart/form-data` body; above ``MultipartFormData/streamingThreshold`` it is
    /// streamed from a temporary file that is removed afterwards. Its `Content-Type` is always
    /// the form's ``MultipartFormData/contentType``, which names the boundary the parts are
    /// framed with: one the endpoint's headers give is replaced.
    case uploadMultipart(MultipartFormData, urlParameters: Parameters? = nil)

    /// The response body written to a file (see ``DownloadDestination``), with download progress;
    /// ``Response/fileURL`` is the destination and ``Response/data`` is empty.
    case download(DownloadDestination, urlParameters: Parameters? = nil)
}

/// How ``HTTPTask`` body parameters become a body.
public enum BodyEncoding: Sendable {
    /// A JSON object (``JSONParameterEncoder`` with its defaults: sorted keys, `application/json`).
    case json
    /// A form, `application/x-www-form-urlencoded; charset=utf-8` (``URLParameterEncoder`` into
    /// the body).
    case urlForm
    /// Any encoder, such as a configured ``JSONParameterEncoder`` or one of your own.
    case custom(any ParameterEncoder)

    /// The encoder that writes the body.
    public var encoder: any ParameterEncoder {
        switch self {
        case .json: return JSONParameterEncoder()
        case .urlForm: return URLParameterEncoder(destination: .httpBody)
        case .custom(let encoder): return encoder
        }
    }
}

extension HTTPTask {
    /// The parameters that go into the URL's query, whatever the case.
    public var urlParameters: Parameters? {
        switch self {
        case .request, .requestData, .requestJSONEncodable:
            return nil
        case .requestParameters(_, _, let parameters), .requestParametersAndHeaders(_, _, let parameters, _),
            .uploadFile(_, _, let parameters), .uploadData(_, _, let parameters), .uploadMultipart(_, let parameters),
            .download(_, let parameters):
            return parameters
        }
    }
}
