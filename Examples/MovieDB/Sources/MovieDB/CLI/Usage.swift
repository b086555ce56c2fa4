extension MovieDBCommand {
    /// The help text, printed by `movie-db --help` (stdout) and when no command is given (stderr).
    public static let usage = """
        USAGE: movie-db <command> [--page <n>] [--json]

        Browse The Movie Database (TMDB) from the command line.

        COMMANDS:
          popular             Popular movies
          now-playing         Movies now in theatres
          recommended <id>    Movies recommended for movie <id>
          videos <id>         Trailers and clips of movie <id>
          movie <id>          Details of movie <id>
          search <query>      Movies whose title matches <query>
          help                Show this help

        OPTIONS:
          --page <n>          Page of results, 1 to 500 (default 1): popular, now-playing,
                              recommended and search
          --json              Print JSON instead of a table
          -h, --help          Show this help

        ENVIRONMENT:
          TMDB_ACCESS_TOKEN   TMDB API Read Access Token, sent as "Authorization: Bearer <token>"
          TMDB_API_KEY        TMDB API key, sent as the api_key query parameter (if no token)
          TMDB_BASE_URL       API base URL (default https://api.themoviedb.org/3)
          With neither a token nor a key, movie-db shows bundled sample data and uses no network.

        EXIT STATUS: 0 success, 1 request failed, 2 usage error.

        """

    /// The line after a usage error.
    static let usageHint = "Run 'movie-db --help' for usage."

    /// The notice on stderr when no credential is configured.
    static let offlineNotice =
        "movie-db: no TMDB_ACCESS_TOKEN or TMDB_API_KEY set; showing bundled sample data (offline)."
}
