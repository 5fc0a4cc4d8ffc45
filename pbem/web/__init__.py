"""The read-only web archive: game list, each game's turns with reports and pictures, private seat pages."""
