import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an endpoint into the `URLRequest` that is sent: URL, method, timeout, headers,
/// query and body. Pure: nothing is sent, and every problem is a ``RequestBuildingError``.
public enum RequestBuilder {
    /// The request for `endpoint`.
    ///
    /// Order: URL from base URL and path; method, cache policy and timeout; the endpoint's
    /// headers; the task's additional headers over them; URL parameters into the query; the
    /// body, whose encoder sets `Content-Type` only where no header gave one.
    ///
    /// - Throws: ``RequestBuildingError``.
    public static func makeRequest(for endpoint: some EndPointType) throws(RequestBuildingError) -> URLRequest {
        let timeout = endpoint.timeout
        guard timeout > 0 else { throw .invalidTimeout(timeout) }
        let url = try URLJoining.url(base: endpoint.baseURL, path: endpoint.path)
        // Foundation's idle timeout; capped because FoundationNetworking converts it to an integer.
        var request = URLRequest(
            url: url, cachePolicy: endpoint.cachePolicy,
            timeoutInterval: min(timeout, RequestHandle.longestDeadline))
        request.httpMethod = endpoint.httpMethod.rawValue
        try request.setValidatedHeaders(endpoint.headers)

        switch endpoint.task {
        case .request:
            break
        case .requestParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            try encode(body: bodyParameters, with: bodyEncoding, query: urlParameters, endpoint: endpoint, into: &request)
        case .requestParametersAndHeaders(let bodyParameters, let bodyEncoding, let urlParameters, let headers):
            try request.setValidatedHeaders(headers)
            try encode(body: bodyParameters, with: bodyEncoding, query: urlParameters, endpoint: endpoint, into: &request)
        case .requestData(let data, let contentType):
            if let contentType, request.headerValue(named: "Content-Type") == nil {
                try request.setValidatedHeader(contentType, for: "Content-Type")
            }
            request.httpBody = data
        case .requestJSONEncodable(let value, let encoder):
            try parameterEncoding {
                try JSONParameterEncoder().encode(urlRequest: &request, encodable: value, encoder: encoder)
            }
        }

        if request.httpBody != nil && !endpoint.httpMethod.allowsRequestBody {
            throw .bodyNotAllowed(endpoint.httpMethod)
        }
        return request
    }

    private static func encode(
        body: Parameters?, with bodyEncoding: BodyEncoding, query: Parameters?,
        endpoint: some EndPointType, into request: inout URLRequest
    ) throws(RequestBuildingError) {
        if let query, !query.isEmpty {
            var encoder = endpoint.queryEncoder
            encoder.destination = .queryString
            try parameterEncoding { try encoder.encode(urlRequest: &request, with: query) }
        }
        if let body, !body.isEmpty {
            if !endpoint.httpMethod.allowsRequestBody {
                throw .bodyNotAllowed(endpoint.httpMethod)
            }
            try parameterEncoding { try bodyEncoding.encoder.encode(urlRequest: &request, with: body) }
        }
    }

    /// Runs an encoder, wrapping what it throws into a ``RequestBuildingError``.
    private static func parameterEncoding(_ body: () throws -> Void) throws(RequestBuildingError) {
        do {
            try body()
        } catch let error as ParameterEncodingError {
            throw .parameterEncoding(error)
        } catch {
            throw .parameterEncoding(.encodableFailed(type: "\(type(of: error))", codingPath: "", description: "\(error)"))
        }
    }
}

extension URLRequest {
    mutating func setValidatedHeaders(_ headers: HTTPHeaders?) throws(RequestBuildingError) {
        guard let headers else { return }
        // Sorted, so that of two names differing only in case the same one wins every time.
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            try setValidatedHeader(value, for: name)
        }
    }
}
