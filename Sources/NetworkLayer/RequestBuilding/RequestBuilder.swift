import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
    /// - Throws: ``NetworkError/invalidRequest(_:)`` with the ``RequestBuildingError``.
    public static func makeRequest(for endpoint: some EndPointType) throws(NetworkError) -> URLRequest {
        let added = (endpoint as? MappedEndpoint)?.additionalURLParameters ?? [:]
        do throws(RequestBuildingError) {
            return try makeRequestAndBody(for: endpoint, addingURLParameters: added).request
        } catch {
            throw .invalidRequest(error)
        }
    }

    /// The request, and how its body travels: in the request, as an upload, or as a download.
    ///
    /// - Parameter added: URL parameters over the task's own (``MappedEndpoint/adding(urlParameters:)``).
    static func makeRequestAndBody(
        for endpoint: some EndPointType, addingURLParameters added: Parameters = [:]
    ) throws(RequestBuildingError) -> (request: URLRequest, body: BodyKind) {
        let timeout = endpoint.timeout
        guard timeout > 0 else { throw .invalidTimeout(timeout) }
        var urlParameters = endpoint.task.urlParameters
        if !added.isEmpty { urlParameters = (urlParameters ?? [:]).merging(added) { _, new in new } }
        // URL parameters join the URL as it is built: one parse for the whole URL.
        let query = try urlParameters.map { parameters throws(RequestBuildingError) in
            try parameterEncoding { try endpoint.queryEncoder.query(from: parameters) }
        }
        var url = try URLJoining.url(base: endpoint.baseURL, path: endpoint.path, query: query)
        let urlCredentials = URLJoining.removeUserInfo(from: &url)
        // The transport's idle timeout, a second past the router's deadline (which keeps the exact
        // value), so that the deadline is what ends a request that hears nothing: at an equal
        // value CurlTransport's millisecond idle timer won the race for a third of 100 requests
        // to a server that never answers, which then failed with .transport(.timedOut) instead
        // of .timedOut(after:). Whole seconds, because FoundationNetworking truncates it (0.5 s
        // would become a 1 ms timeout).
        var request = URLRequest(
            url: url, cachePolicy: endpoint.cachePolicy,
            timeoutInterval: min(timeout.rounded(.up) + 1, Seconds.longest))
        // A new request's method is already GET, and FoundationNetworking's setter is not free.
        if endpoint.httpMethod != .get { request.httpMethod = endpoint.httpMethod.rawValue }
        try request.setValidatedHeaders(endpoint.headers)
        if let urlCredentials, request.value(forHTTPHeaderField: "Authorization") == nil {
            request.setValue(urlCredentials, forHTTPHeaderField: "Authorization")
        }

        var body = BodyKind.inRequest
        switch endpoint.task {
        case .request:
            break
        case .requestParameters(let bodyParameters, let bodyEncoding, _):
            try encode(body: bodyParameters, with: bodyEncoding, endpoint: endpoint, into: &request)
        case .requestParametersAndHeaders(let bodyParameters, let bodyEncoding, _, let headers):
            try request.setValidatedHeaders(headers)
            try encode(body: bodyParameters, with: bodyEncoding, endpoint: endpoint, into: &request)
        case .requestData(let data, let contentType):
            try request.setContentTypeIfAbsent(contentType ?? Self.unknownBodyType)
            request.httpBody = data
        case .requestJSONEncodable(let value, let encoder):
            try parameterEncoding {
                try JSONParameterEncoder().encode(urlRequest: &request, encodable: value, encoder: encoder)
            }
        case .uploadFile(let file, let contentType, _):
            // FoundationNetworking traps on a body URL that is not a file URL; and a device or a
            // pipe (/dev/zero, a FIFO) is no file to upload: read whole into memory for ever, or
            // blocking a thread until a writer comes. `stat` follows a link to the file.
            var info = stat()
            guard file.isFileURL, stat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                FileManager.default.isReadableFile(atPath: file.path)
            else {
                throw .unreadableUploadFile(ErrorText.url(file.absoluteString))
            }
            try request.setContentTypeIfAbsent(contentType ?? Self.unknownBodyType)
            body = .upload(.file(file))
        case .uploadData(let data, let contentType, _):
            try request.setContentTypeIfAbsent(contentType ?? Self.unknownBodyType)
            body = .upload(.data(data))
        case .uploadMultipart(let form, _):
            // Always the form's: a type of the endpoint's (a global `application/json`, or a
            // multipart type without this form's boundary) would leave no server able to find
            // the parts. Alamofire replaces it the same way.
            try request.setCheckedHeader(form.contentType, for: "Content-Type")
            body = .multipart(form)
        case .download(let destination, _):
            body = .download(destination)
        }

        // The endpoint's method, and the headers a custom ParameterEncoder may have set.
        try request.validateHead()
        if (request.httpBody != nil || body.hasBody) && !endpoint.httpMethod.allowsRequestBody {
            throw .bodyNotAllowed(endpoint.httpMethod)
        }
        return (request, body)
    }

    /// The type of a body whose endpoint names none: Foundation and libcurl would otherwise both
    /// announce a POST body as `application/x-www-form-urlencoded`, which a file or raw data is not.
    static let unknownBodyType = "application/octet-stream"

    /// How a request's body travels.
    enum BodyKind: Sendable {
        /// In `URLRequest.httpBody` (or no body): a plain data task.
        case inRequest
        /// Uploaded from memory or a file, with progress.
        case upload(UploadBody)
        /// A multipart form, uploaded from memory or, when large, from a temporary file.
        case multipart(MultipartFormData)
        /// The response body goes to a file.
        case download(DownloadDestination)

        var hasBody: Bool {
            switch self {
            case .upload, .multipart: return true
            case .inRequest, .download: return false
            }
        }
    }

    private static func encode(
        body: Parameters?, with bodyEncoding: BodyEncoding, endpoint: some EndPointType, into request: inout URLRequest
    ) throws(RequestBuildingError) {
        if let body, !body.isEmpty {
            if !endpoint.httpMethod.allowsRequestBody {
                throw .bodyNotAllowed(endpoint.httpMethod)
            }
            let encoder = bodyEncoding.encoder
            try parameterEncoding { try encoder.encode(urlRequest: &request, with: body) }
            // A custom encoder may write elsewhere (URLParameterEncoder's default destination is
            // the query) or nothing: body parameters must not end up in the URL, or be lost.
            let wroteBody = !(request.httpBody?.isEmpty ?? true) || request.httpBodyStream != nil
            guard wroteBody else { throw .bodyNotWritten(encoder: String(describing: type(of: encoder))) }
        }
    }

    /// Runs an encoder, wrapping what it throws into a ``RequestBuildingError``.
    private static func parameterEncoding<Value>(_ body: () throws -> Value) throws(RequestBuildingError) -> Value {
        do {
            return try body()
        } catch let error as ParameterEncodingError {
            throw .parameterEncoding(error)
        } catch {
            throw .parameterEncoding(.encodableFailed(type: "\(type(of: error))", codingPath: "", description: "\(error)"))
        }
    }
}

extension URLRequest {
    mutating func setContentTypeIfAbsent(_ contentType: String?) throws(RequestBuildingError) {
        if let contentType, headerValue(named: "Content-Type") == nil {
            try setCheckedHeader(contentType, for: "Content-Type")
        }
    }

    mutating func setValidatedHeaders(_ headers: HTTPHeaders?) throws(RequestBuildingError) {
        guard let headers, !headers.isEmpty else { return }
        if headers.count == 1 {
            // Nothing to order, and sorting would allocate an array.
            try setCheckedHeaders(headers.lazy.map { ($0.key, $0.value) })
            return
        }
        // Sorted, so that of two names differing only in case the same one wins every time.
        try setCheckedHeaders(headers.sorted(by: { $0.key < $1.key }).lazy.map { ($0.key, $0.value) })
    }
}
