from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from games.records import events
        from scoring import jobs, stats

        # Statistics and ratings follow the games whose results change: records announce it
        # (games never import scoring), and a re-score job hands over its games once done.
        events.on_results_changed(stats.game_results_changed)
        jobs.AFTER_JOB.append(stats.job_games_changed)
