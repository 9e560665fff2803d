import ArgumentParser

extension KalendsCommand {
  /// `kalends config`: the person's settings file.
  struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "config",
      abstract: "Show the settings in force: the settings file's, the environment's and the defaults.",
      discussion: """
        The settings file is $KALENDS_CONFIG, else $XDG_CONFIG_HOME/kalends/config.toml, else \
        ~/.config/kalends/config.toml: TOML, every key optional. store = "~/calendars" (the store \
        without --store or $KALENDS_STORE), calendar = "Work" (event add's calendar without \
        --calendar), reminder-list = "Inbox" (reminder add's list), zone = "Europe/Berlin" (the \
        zone without --tz or $TZ), format = "json" (every --format's default, where the command \
        has it), notify = "none" (serve's --notify). A flag wins over the environment, the \
        environment over the file, the file over Kalends' defaults. A key Kalends does not know, \
        a value of the wrong type or a zone it does not know stops every command with the file \
        and line (exit 65).
        """,
      subcommands: [Show.self])
  }
}
