public enum CLIPlaceholder {}
